/**
 * The simulated link (@eo/bench-kit `startLink`) in a child process of its own. In the
 * benchmark's process it shared the event loop with the engine it measures: while the engine
 * wrote a page to SQLite (synchronous, and long on a loaded machine) the proxy's timers could
 * not run, so the simulated line fell idle, which a real line does not (the kernel keeps
 * receiving into the socket's buffer). Counters are read over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLink, type LinkCounters, type LinkProfile } from '@eo/bench-kit';

export interface LinkProcess {
  readonly url: string;
  readonly profile: LinkProfile;
  counters(): Promise<LinkCounters>;
  /** CPU the link's process used so far (ms), asked over IPC, as the service's is. */
  cpuMs(): Promise<number>;
  resetCounters(): Promise<void>;
  close(): Promise<void>;
}

type Ask = 'counters' | 'reset' | 'cpu';

/** Forks this file as the link in front of `target`; resolves once it listens. */
export async function forkLink(target: string, profile: LinkProfile): Promise<LinkProcess> {
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    [target, JSON.stringify(profile)],
    {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`link exited with ${code}`)));
  });
  const ask = <T>(what: Ask) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(what);
    });
  return {
    url,
    profile,
    counters: () => ask<LinkCounters>('counters'),
    cpuMs: () => ask<{ cpuMs: number }>('cpu').then((m) => m.cpuMs),
    resetCounters: () => ask<void>('reset').then(() => undefined),
    async close() {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const [target, profile] = process.argv.slice(2) as [string, string];
  const link = await startLink(target, JSON.parse(profile) as LinkProfile);
  process.on('message', (m: Ask) => {
    if (m === 'counters') process.send?.(link.counters());
    else if (m === 'reset') {
      link.resetCounters();
      process.send?.({});
    } else if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMs: (user + system) / 1000 });
    }
  });
  process.send?.({ url: link.url });
  const stop = () => void link.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

// Run as the child (forked with this file as its entry), not when imported.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
