/**
 * Whether the desktop app's build (apps/desktop/out) is the build of the sources as they are
 * now, by content: `npm start` rebuilds only when something the bundles are made of changed
 * (a touched but unchanged file, a test, a README or a benchmark does not count).
 *
 *   node scripts/desktop-build-stamp.mjs fresh   exit 0 when out/ matches the sources, else 1
 *   node scripts/desktop-build-stamp.mjs digest  print the sources' digest (take it before building)
 *   node scripts/desktop-build-stamp.mjs write D record that out/ was just built from digest D
 *
 * Plain Node (no TypeScript at launch): it runs before anything is built.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the stamp lives, inside the build it describes (a clean build has none). */
export const STAMP = path.join('apps', 'desktop', 'out', '.sources.sha256');

/** What the bundles are made of: the app, every workspace package it bundles, the lockfile. */
const INPUTS = [
  'pnpm-lock.yaml',
  'apps/desktop/package.json',
  'apps/desktop/electron.vite.config.ts',
  'apps/desktop/tsconfig.json',
  'apps/desktop/tsconfig.web.json',
  'apps/desktop/src',
  'apps/desktop/resources',
  'packages', // the reference service (embedded) among them
];

/** Never part of a bundle. */
const SKIPPED_DIRS = new Set(['node_modules', '__tests__', 'e2e', 'bench', 'dist', 'out']);
const SKIPPED_FILE = /\.(md|spec\.ts|test\.ts)$/;

/** Files under `rel` (a file or a folder) in a stable order, relative to `root`. */
function filesOf(root, rel) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [rel];
  const out = [];
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    const child = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...filesOf(root, child));
    } else if (entry.isFile() && !SKIPPED_FILE.test(entry.name)) {
      out.push(child);
    }
  }
  return out.sort();
}

/** SHA-256 over every input file's path and content. */
export function sourcesDigest(root) {
  const hash = createHash('sha256');
  for (const rel of INPUTS.flatMap((i) => filesOf(root, i))) {
    hash
      .update(rel)
      .update('\0')
      .update(fs.readFileSync(path.join(root, rel)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** True when the stamp in out/ names the sources as they are now. */
export function buildIsFresh(root) {
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(stamp)) return false;
  return fs.readFileSync(stamp, 'utf8').trim() === sourcesDigest(root);
}

/**
 * Records what out/ was built from: pass the digest taken before the build started, so a file
 * edited while it ran makes the next start rebuild.
 */
export function writeStamp(root, digest = sourcesDigest(root)) {
  fs.writeFileSync(path.join(root, STAMP), `${digest}\n`);
}

const invoked = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const command = process.argv[2];
  if (command === 'fresh') process.exit(buildIsFresh(root) ? 0 : 1);
  else if (command === 'digest') console.log(sourcesDigest(root));
  else if (command === 'write' && /^[0-9a-f]{64}$/.test(process.argv[3] ?? '')) {
    writeStamp(root, process.argv[3]);
  } else {
    console.error('usage: node scripts/desktop-build-stamp.mjs fresh | digest | write <digest>');
    process.exit(2);
  }
}
