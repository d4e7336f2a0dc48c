/**
 * The reference service in a child process for benchmarks (so its work does not share the
 * measured event loop): started on 127.0.0.1 and runs until killed; sends `{ url, key }` to the
 * parent over IPC.
 *
 * - no argument: a temp SQLite file with the demo org seeded (removed on exit);
 * - `<dataDir>`: an existing data dir (a copy of `service-data.ts`'s cache), its key read from
 *   `<dataDir>/bench-key`; the parent owns the folder.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServiceProcess {
  readonly url: string;
  readonly key: string;
  /** CPU the service process used so far (ms), asked over IPC. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/** Forks this file as the service; resolves once it listens. */
export async function forkService(dataDir?: string): Promise<ServiceProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), dataDir ? [dataDir] : [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; key: string }));
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return {
    url,
    key,
    cpuMs: () =>
      new Promise<number>((resolve) => {
        const l = (m: unknown) => {
          if (typeof m === 'object' && m !== null && 'cpuMs' in m) {
            child.off('message', l);
            resolve((m as { cpuMs: number }).cpuMs);
          }
        };
        child.on('message', l);
        child.send('cpu');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

async function main(): Promise<void> {
  // Loaded here, not at the top: parents import `forkService` without paying for the server.
  const { seedDemo, startServer } = await import('@eo/reference-service');
  const given = process.argv[2];
  const dataDir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-svc-'));
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  const key = given
    ? fs.readFileSync(path.join(dataDir, 'bench-key'), 'utf8')
    : seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 10 }).demoKey!;
  process.send?.({ url: server.url, key });
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMs: (user + system) / 1000 });
  });
  const stop = () => {
    void server.close().finally(() => {
      if (!given) fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

// Run as the child (forked with this file as its entry), not when imported.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
