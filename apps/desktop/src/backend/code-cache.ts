/**
 * V8's code cache for the app's own bundled chunks (`out/main/*.cjs`): what Node 22's
 * `module.enableCompileCache()` does, for the Node 20 that runs browser mode. Compiling the
 * backend's chunks took ~65 ms of each launch, on a core the renderer's first screen wanted too
 * (docs/cold-start.md); a chunk compiled with its cache skips parsing and compiling every function
 * the previous launch ran.
 *
 * One file per chunk, named by a hash of its path, its source and the V8 that made it: a chunk
 * that changed, or another V8 (Electron's beside plain Node on one data folder), gets a file of
 * its own. A cache V8 refuses (damaged, or made with other flags) compiles as usual and is
 * written again. A chunk holding the text of a dynamic `import(` compiles as usual too: Node 20
 * loses a cached script's `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and the bundle
 * turns the app's own dynamic imports into `require`s (electron.vite.config.ts keeps the two
 * thread starters, whose worker code is such text, in a chunk of their own).
 *
 * Nothing depends on it: a folder that cannot be read or written costs only the time it would
 * have saved. It lives in the data folder (owner-only, like the mirror): V8 checks that a cache
 * was made for the source it is given, not who wrote it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

export interface CodeCache {
  /**
   * Writes the caches of chunks compiled without one. Called at exit: the functions that ran by
   * then are in the cache, not only the chunks' top levels.
   */
  save(): void;
  /** Chunks compiled with a cache, and without one (or with one V8 refused). */
  readonly stats: { hits: number; misses: number };
}

/** The folder of the data folder that holds the caches. */
export const CODE_CACHE_DIR = 'code-cache';

/** Caches older than this are removed when new ones are written (chunks of earlier builds). */
const KEEP_DAYS = 30;

/**
 * What may be a dynamic import in a chunk's text: `import(` not part of a longer name or a
 * property, nor an async method's name. Errs towards yes (a string, a comment, a plain method
 * named `import` match too): such chunks only compile as usual.
 */
const DYNAMIC_IMPORT = /(?<![\w$.]|async\s)import\s*\(/;

type Compile = (this: Module, content: string, filename: string, ...rest: unknown[]) => unknown;

/**
 * From now on, a `.cjs` file of `chunksDir` that this process requires is compiled with its
 * cache from `cacheDir` (unless it may hold a dynamic import).
 */
export function enableCodeCache(options: { cacheDir: string; chunksDir: string }): CodeCache {
  const chunksDir = path.resolve(options.chunksDir);
  const { cacheDir } = options;
  const stats = { hits: 0, misses: 0 };
  /** Scripts compiled without a usable cache, and where theirs goes. */
  const unsaved: Array<{ script: vm.Script; file: string }> = [];
  const proto = Module.prototype as unknown as { _compile: Compile };
  const compile = proto._compile;

  proto._compile = function (content, filename, ...rest) {
    if (
      path.dirname(filename) !== chunksDir ||
      path.extname(filename) !== '.cjs' ||
      DYNAMIC_IMPORT.test(content)
    )
      return compile.call(this, content, filename, ...rest);
    const key = crypto
      .createHash('sha256')
      .update(`${process.versions.v8}\0${filename}\0`)
      .update(content)
      .digest('hex')
      .slice(0, 32);
    const file = path.join(cacheDir, `${path.basename(filename)}.${key}.v8`);
    const cachedData = readCache(file);
    const script = new vm.Script(Module.wrap(content), {
      filename,
      ...(cachedData ? { cachedData } : {}),
    });
    if (cachedData && !script.cachedDataRejected) stats.hits++;
    else {
      stats.misses++;
      unsaved.push({ script, file });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (
      ...args: unknown[]
    ) => unknown;
    const require = Module.createRequire(filename);
    return wrapper.call(
      this.exports,
      this.exports,
      require,
      this,
      filename,
      path.dirname(filename),
    );
  };

  return {
    stats,
    save() {
      if (unsaved.length === 0) return;
      try {
        fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        removeOld(cacheDir);
        for (const { script, file } of unsaved.splice(0))
          writeCache(file, script.createCachedData());
      } catch {
        // A cache is never needed: the next launch compiles as this one did.
      }
    },
  };
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: a launch reading it meanwhile never sees half of one. */
function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Another launch on the folder may remove the same files meanwhile: each is tried alone. */
function removeOld(cacheDir: string): void {
  const before = Date.now() - KEEP_DAYS * 86_400_000;
  for (const name of fs.readdirSync(cacheDir)) {
    const file = path.join(cacheDir, name);
    try {
      if (fs.statSync(file).mtimeMs < before) fs.rmSync(file, { force: true });
    } catch {
      // Gone already.
    }
  }
}
