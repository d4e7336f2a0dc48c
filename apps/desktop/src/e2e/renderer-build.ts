/**
 * The built renderer (electron-vite's `out/renderer`) that browser mode serves: reused when out/
 * was built from the sources as they are now (the content stamp `npm start` also reads:
 * scripts/desktop-build-stamp.mjs), else rebuilt once with `electron-vite build`. Used by the e2e project's global setup and by the benchmarks.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildIsFresh,
  sourcesDigest,
  writeStamp,
} from '../../../../scripts/desktop-build-stamp.mjs';

/** apps/desktop */
export const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_DIR = path.join(APP_DIR, 'out', 'renderer');
const REPO_ROOT = path.resolve(APP_DIR, '..', '..');

/** True when out/ was built from the sources as they are now (by content, as `npm start` asks). */
export function rendererIsFresh(): boolean {
  return fs.existsSync(path.join(RENDERER_DIR, 'index.html')) && buildIsFresh(REPO_ROOT);
}

/** Build the renderer unless the last build is fresh; returns the renderer dir. */
export function ensureRendererBuilt(log: (line: string) => void = () => undefined): string {
  if (rendererIsFresh()) return RENDERER_DIR;
  log('Building the renderer (electron-vite build)…');
  const digest = sourcesDigest(REPO_ROOT);
  const bin = path.join(APP_DIR, 'node_modules', '.bin', 'electron-vite');
  const r = spawnSync(bin, ['build'], {
    cwd: APP_DIR,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (r.status !== 0) {
    throw new Error(`electron-vite build failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  writeStamp(REPO_ROOT, digest);
  return RENDERER_DIR;
}
