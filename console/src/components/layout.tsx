/**
 * The frame of every page once signed in: the navigation, the caller's identity, and sign-out.
 */
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';

const PAGES = [
  { to: '/methods', label: 'Methods' },
  { to: '/runs', label: 'Runs' },
  { to: '/usage', label: 'Usage' },
  { to: '/keys', label: 'Keys' },
];

/** The frame around a page. */
export function Layout({ children, onSignOut }: { children: ReactNode; onSignOut(): void }) {
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">MTHDS console</span>
        <nav aria-label="Console">
          {PAGES.map((page) => (
            <NavLink key={page.to} to={page.to} className={({ isActive }) => (isActive ? 'active' : '')}>
              {page.label}
            </NavLink>
          ))}
        </nav>
        <button type="button" className="link" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
