/**
 * V8's code cache for the bundle's chunks (code-cache.ts). Each launch is a fresh Node process
 * (in one process V8 keeps what it compiled and never reads a cache for the same source again):
 * real chunks required through Node's loader from a temp folder, their caches written, read
 * back, refused when damaged, kept apart when a chunk's source changes. What the chunks compute
 * is the same every time.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './harness';

let root: string;
let chunksDir: string;
let cacheDir: string;

/** The module under test as Node runs it in a launch: CommonJS, from the source of the spec's time. */
const moduleSource = ts.transpileModule(
  fs.readFileSync(path.join(import.meta.dirname, '..', 'code-cache.ts'), 'utf8'),
  {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  },
).outputText;

/** A launch: the cache on, the chunks required and run, the cache saved at exit. */
const LAUNCH = `
const { enableCodeCache } = require('./code-cache.cjs');
const [cacheDir, chunksDir, ...others] = process.argv.slice(2);
const cache = enableCodeCache({ cacheDir, chunksDir });
process.on('exit', () => cache.save());
const a = require(chunksDir + '/a.cjs');
const loaded = others.map((f) => require(chunksDir + '/' + f));
require(chunksDir + '/later.cjs').later().then((later) =>
  process.stdout.write(JSON.stringify({ sum: a.sum(20), where: a.where(), later, loaded, stats: cache.stats })),
);
`;

beforeEach(() => {
  root = tempDir('eo-code-cache-');
  chunksDir = path.join(root, 'main');
  cacheDir = path.join(root, 'data', 'code-cache');
  fs.mkdirSync(chunksDir);
  fs.writeFileSync(path.join(root, 'code-cache.cjs'), moduleSource);
  fs.writeFileSync(path.join(root, 'launch.cjs'), LAUNCH);
  // A chunk that requires another and a built-in.
  fs.writeFileSync(
    path.join(chunksDir, 'a.cjs'),
    [
      "const b = require('./b.cjs');",
      "const os = require('node:os');",
      'exports.sum = (x) => b.twice(x) + 1;',
      'exports.where = () => [__dirname, __filename, module.id === __filename, typeof os.cpus];',
      // A method named `import` is no dynamic import.
      'exports.api = { async import(x) { return x; } };',
    ].join('\n'),
  );
  // A chunk with a dynamic import: Node 20 would lose it in a cached script.
  fs.writeFileSync(
    path.join(chunksDir, 'later.cjs'),
    "exports.later = () => import('node:path').then((m) => typeof m.join);\n",
  );
  fs.writeFileSync(path.join(chunksDir, 'b.cjs'), 'exports.twice = (x) => x * 2;\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** One launch in a new process; what its chunks computed is checked, its counts returned. */
function launch(...others: string[]): { hits: number; misses: number; loaded: unknown[] } {
  const out = JSON.parse(
    execFileSync(
      process.execPath,
      [path.join(root, 'launch.cjs'), cacheDir, chunksDir, ...others],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    ),
  ) as {
    sum: number;
    where: unknown[];
    later: string;
    loaded: unknown[];
    stats: { hits: number; misses: number };
  };
  expect(out.sum).toBe(41);
  expect(out.where).toEqual([chunksDir, path.join(chunksDir, 'a.cjs'), true, 'function']);
  expect(out.later).toBe('function');
  return { ...out.stats, loaded: out.loaded };
}
const counts = (...others: string[]) => {
  const { hits, misses } = launch(...others);
  return { hits, misses };
};

const cacheFiles = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);
const mtimes = () => cacheFiles().map((f) => fs.statSync(path.join(cacheDir, f)).mtimeMs);

describe('code cache', () => {
  it('a first launch compiles and writes a cache per chunk (0600); the next compiles from them', () => {
    expect(counts()).toEqual({ hits: 0, misses: 2 });
    const files = cacheFiles();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^a\.cjs\.[0-9a-f]{32}\.v8$/);
    for (const f of files) expect(fs.statSync(path.join(cacheDir, f)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);

    const written = mtimes();
    expect(counts()).toEqual({ hits: 2, misses: 0 });
    // Nothing new to write.
    expect(mtimes()).toEqual(written);
  });

  it('a damaged cache (cut short, empty, garbage) is refused: the chunk compiles as usual and its cache is written again', () => {
    counts();
    const [a, b] = cacheFiles().map((f) => path.join(cacheDir, f));
    const whole = fs.readFileSync(a!);
    fs.writeFileSync(a!, whole.subarray(0, whole.length >> 1));
    fs.writeFileSync(b!, Buffer.alloc(0));
    expect(counts()).toEqual({ hits: 0, misses: 2 });
    expect(counts()).toEqual({ hits: 2, misses: 0 });

    fs.writeFileSync(a!, Buffer.from('not a code cache at all'.repeat(40)));
    expect(counts()).toEqual({ hits: 1, misses: 1 });
    expect(counts()).toEqual({ hits: 2, misses: 0 });
  });

  it('a chunk whose source changed gets a cache of its own; the other keeps its', () => {
    counts();
    fs.writeFileSync(path.join(chunksDir, 'b.cjs'), 'exports.twice = (x) => x + x;\n');
    expect(counts()).toEqual({ hits: 1, misses: 1 });
    expect(cacheFiles().filter((f) => f.startsWith('b.cjs.'))).toHaveLength(2);
    expect(counts()).toEqual({ hits: 2, misses: 0 });
  });

  it('files in a folder below, not .cjs, or with a dynamic import compile as usual (their import() works every launch)', () => {
    fs.mkdirSync(path.join(chunksDir, 'nested'));
    fs.writeFileSync(path.join(chunksDir, 'nested', 'c.cjs'), 'exports.c = 3;\n');
    fs.writeFileSync(path.join(chunksDir, 'd.js'), 'exports.d = 4;\n');
    const first = launch('nested/c.cjs', 'd.js');
    expect(first).toEqual({ hits: 0, misses: 2, loaded: [{ c: 3 }, { d: 4 }] });
    expect(cacheFiles().map((f) => f.split('.')[0])).toEqual(['a', 'b']);
  });

  it('writing new caches removes those unused for 30 days (chunks of earlier builds)', () => {
    fs.mkdirSync(cacheDir, { recursive: true });
    const day = 86_400_000;
    const aged = (name: string, days: number) => {
      const file = path.join(cacheDir, name);
      fs.writeFileSync(file, 'x');
      const t = new Date(Date.now() - days * day);
      fs.utimesSync(file, t, t);
    };
    aged('launch-old.cjs.00000000000000000000000000000000.v8', 31);
    aged('launch-recent.cjs.11111111111111111111111111111111.v8', 29);
    expect(counts()).toEqual({ hits: 0, misses: 2 });
    expect(cacheFiles().map((f) => f.split('.')[0])).toEqual(['a', 'b', 'launch-recent']);
  });

  it('a cache folder that cannot be written costs nothing but the cache', () => {
    fs.mkdirSync(path.dirname(cacheDir), { recursive: true });
    fs.writeFileSync(cacheDir, 'a file where the folder would be');
    expect(counts()).toEqual({ hits: 0, misses: 2 });
    expect(counts()).toEqual({ hits: 0, misses: 2 });
  });
});
