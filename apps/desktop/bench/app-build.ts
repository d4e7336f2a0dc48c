/**
 * The built app the benches measure: `appDir`, and `buildApp()` (electron-vite build into out/,
 * unless `--no-build`: bench/run.ts builds once for all of them).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function buildApp(argv: readonly string[] = process.argv): void {
  if (argv.includes('--no-build')) return;
  const r = spawnSync(path.join(appDir, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: appDir,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stderr}`);
}
