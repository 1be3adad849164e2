/**
 * The method console's entry (docs/console.md): sign-in, then the pages under `/console/…`, routed in the browser.
 */
import { lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { clearToken, storedToken, UNAUTHENTICATED_EVENT } from './api';
import { Layout } from './components/layout';
import { Loading } from './components/states';
import { KeysPage } from './pages/keys';
import { MethodPage } from './pages/method';
import { MethodsPage } from './pages/methods';
import { NewMethodPage } from './pages/new-method';
import { RunPage } from './pages/run';
import { RunsPage } from './pages/runs';
import { SignIn } from './pages/sign-in';
import './styles.css';

/** The charts library loads with the usage page only. */
const UsagePage = lazy(() => import('./pages/usage').then((module) => ({ default: module.UsagePage })));

function App() {
  const [token, setToken] = useState(storedToken());
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    // a credential refused later (revoked, expired) signs the person out, saying why
    const refused = () => {
      if (!storedToken()) return;
      clearToken();
      setToken(null);
      setExpired(true);
    };
    window.addEventListener(UNAUTHENTICATED_EVENT, refused);
    return () => window.removeEventListener(UNAUTHENTICATED_EVENT, refused);
  }, []);
  if (!token)
    return (
      <SignIn
        expired={expired}
        onSignedIn={(signedIn) => {
          setExpired(false);
          setToken(signedIn);
        }}
      />
    );
  const signOut = () => {
    clearToken();
    setToken(null);
  };
  return (
    <Layout onSignOut={signOut}>
      <Routes>
        <Route path="/" element={<Navigate to="/methods" replace />} />
        <Route path="/methods" element={<MethodsPage />} />
        <Route path="/methods/new" element={<NewMethodPage />} />
        <Route path="/methods/:methodId" element={<MethodPage />} />
        <Route path="/runs" element={<RunsPage />} />
        <Route path="/runs/:runId" element={<RunPage />} />
        <Route
          path="/usage"
          element={
            <Suspense fallback={<Loading what="the usage page" />}>
              <UsagePage />
            </Suspense>
          }
        />
        <Route path="/keys" element={<KeysPage />} />
        <Route path="*" element={<Navigate to="/methods" replace />} />
      </Routes>
    </Layout>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename="/console">
      <App />
    </BrowserRouter>
  </StrictMode>,
);
