/**
 * The reference service in a child process for benchmarks (so its work does not share the
 * measured event loop): started on 127.0.0.1 on a temp SQLite file, demo org seeded; sends
 * `{ url, key }` to the parent over IPC and runs until killed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedDemo, startServer } from '@eo/server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-svc-'));
const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 10 }).demoKey!;
process.send?.({ url: server.url, key });
const stop = () => {
  void server.close().finally(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
