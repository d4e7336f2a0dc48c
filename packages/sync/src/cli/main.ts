/**
 * The `eo` process (started by bin/eo.js): real argv, environment and streams; Ctrl-C or
 * SIGTERM aborts the running sync or flush, which keeps what it committed (a second Ctrl-C
 * exits at once).
 */
import { runEo } from './run';

const controller = new AbortController();
const stop = () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// Through the package script (`pnpm --filter @eo/sync eo ...`) the process runs in
// packages/sync: relative paths then mean what they meant where pnpm was started.
const viaPackageScript = process.env.npm_lifecycle_event === 'eo' && process.env.INIT_CWD;

process.exitCode = await runEo(process.argv.slice(2), {
  env: process.env,
  cwd: viaPackageScript ? process.env.INIT_CWD : process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
});
