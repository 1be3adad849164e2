/**
 * The processes of a tree, read from Linux `/proc`: each descendant of a process with its resident memory and command
 * line, for tests that bound what a service and the processes it forks hold together.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** One process of a tree. */
export interface TreeProcess {
  pid: number;
  /** Resident set size, in bytes (`VmRSS`). */
  rssBytes: number;
  /** The command line, its arguments joined by spaces. */
  command: string;
}

function readStatus(pid: number): { ppid: number; rssBytes: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
    const rssKib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
    return { ppid, rssBytes: rssKib * 1024 };
  } catch {
    return undefined;
  }
}

function readCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * A process and all its descendants as they are now (a process that exits while it is read is left out).
 * @param rootPid - the tree's root
 * @returns the root first, then its descendants
 */
export function processTree(rootPid: number): TreeProcess[] {
  const parents = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const status = readStatus(pid);
    if (!status) continue;
    rss.set(pid, status.rssBytes);
    parents.set(status.ppid, [...(parents.get(status.ppid) ?? []), pid]);
  }
  const tree: TreeProcess[] = [];
  const pending = rss.has(rootPid) ? [rootPid] : [];
  for (let pid = pending.shift(); pid !== undefined; pid = pending.shift()) {
    tree.push({ pid, rssBytes: rss.get(pid) ?? 0, command: readCommand(pid) });
    pending.push(...(parents.get(pid) ?? []));
  }
  return tree;
}
