/**
 * The built renderer (electron-vite's `out/renderer`) that browser mode serves: reused when it
 * is newer than every renderer and shared source file, else rebuilt once with `electron-vite
 * build`. Used by the e2e project's global setup and by the benchmarks.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/desktop */
export const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_DIR = path.join(APP_DIR, 'out', 'renderer');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (full.includes(`${path.sep}__tests__${path.sep}`)) continue;
    newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when out/renderer/index.html is newer than the sources it is built from. */
export function rendererIsFresh(): boolean {
  const index = path.join(RENDERER_DIR, 'index.html');
  if (!fs.existsSync(index)) return false;
  const built = fs.statSync(index).mtimeMs;
  const sources = [
    path.join(APP_DIR, 'src', 'renderer'),
    path.join(APP_DIR, 'src', 'shared'),
    path.join(APP_DIR, 'electron.vite.config.ts'),
  ];
  return sources.every((s) =>
    fs.statSync(s).isDirectory() ? newestMtime(s) <= built : fs.statSync(s).mtimeMs <= built,
  );
}

/** Build the renderer unless the last build is fresh; returns the renderer dir. */
export function ensureRendererBuilt(log: (line: string) => void = () => undefined): string {
  if (rendererIsFresh()) return RENDERER_DIR;
  log('Building the renderer (electron-vite build)…');
  const bin = path.join(APP_DIR, 'node_modules', '.bin', 'electron-vite');
  const r = spawnSync(bin, ['build'], {
    cwd: APP_DIR,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (r.status !== 0) {
    throw new Error(`electron-vite build failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return RENDERER_DIR;
}
