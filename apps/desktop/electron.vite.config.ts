import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import fs from 'node:fs';
import { resolve } from 'node:path';
import { basemapData } from './vite/basemap-data.ts';

// Workspace packages export TypeScript sources, so they are bundled. So are the pure-JS
// libraries the first screen's backend loads (cold start, issue 13): zod (~95 files) and
// drizzle-orm (~110 files) cost more to resolve and read one by one than to parse as part of
// our bundle. Everything else in `dependencies` stays external and ships in node_modules:
// better-sqlite3 (native), fastify and its plugins (they read files next to their own code,
// and load only after the first screen, with the embedded service). The server's runtime
// dependencies are listed in ours for that reason.
const workspace = [
  '@eo/domain',
  '@eo/api-client',
  '@eo/catalog-store',
  '@eo/sync',
  '@eo/reference-service',
  '@eo/fixtures',
  '@eo/formats',
  '@eo/geotiff',
];
const inlined = ['zod', 'drizzle-orm'];

/**
 * @eo/sync and @eo/reference-service find their SQL migrations at `../../drizzle` from their source file.
 * Bundled into out/main that path would point at one shared, wrong folder: rewrite each to its
 * own copy next to the bundle, and copy the folders there.
 */
function workspaceMigrations(): Plugin {
  const packages = [
    { file: '/packages/sync/src/db/open.ts', from: '../../packages/sync/drizzle', to: 'sync' },
    {
      file: '/packages/reference-service/src/db/client.ts',
      from: '../../packages/reference-service/drizzle',
      to: 'server',
    },
  ];
  const original = "new URL('../../drizzle', import.meta.url)";
  let outDir = '';
  return {
    name: 'eo-workspace-migrations',
    // Before TypeScript is stripped: the source text is what we match.
    enforce: 'pre',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    transform(code, id) {
      const p = packages.find((x) => id.replaceAll('\\', '/').endsWith(x.file));
      if (!p) return null;
      if (!code.includes(original)) {
        throw new Error(`${p.file}: the migrations path changed; update electron.vite.config.ts`);
      }
      return code.replace(original, `new URL('./drizzle/${p.to}', import.meta.url)`);
    },
    closeBundle() {
      for (const p of packages) {
        fs.cpSync(resolve(__dirname, p.from), resolve(outDir, 'drizzle', p.to), {
          recursive: true,
        });
      }
    },
  };
}

/**
 * Worker threads load an entry module by file name. From sources the service's render pool, the
 * field file importer, the field package check and the sync's write thread name their TypeScript
 * entries; bundled, each entry is built as an entry of its own (`render-thread.cjs`,
 * `import-thread.cjs`, `package-check-thread.cjs`, `raster-index-thread.cjs`,
 * `mirror-write-thread.cjs`, below) and the name in the source is rewritten to it.
 */
function workspaceThreads(): Plugin {
  const threads = [
    {
      file: '/packages/reference-service/src/render/pool.ts',
      original: "const THREAD_ENTRY = './thread-entry.ts';",
      built: "const THREAD_ENTRY = './render-thread.cjs';",
    },
    {
      file: '/packages/formats/src/worker/import-in-worker.ts',
      original: "const IMPORT_THREAD_ENTRY = './import-thread.ts';",
      built: "const IMPORT_THREAD_ENTRY = './import-thread.cjs';",
    },
    {
      file: '/apps/desktop/src/backend/raster-index-in-worker.ts',
      original: "const RASTER_INDEX_THREAD_ENTRY = './raster-index-thread.ts';",
      built: "const RASTER_INDEX_THREAD_ENTRY = './raster-index-thread.cjs';",
    },
    {
      file: '/packages/sync/src/field-package/check-in-worker.ts',
      original: "const PACKAGE_CHECK_THREAD_ENTRY = './check-thread.ts';",
      built: "const PACKAGE_CHECK_THREAD_ENTRY = './package-check-thread.cjs';",
    },
    {
      file: '/packages/sync/src/pull/write-thread.ts',
      original: "const WRITE_THREAD_ENTRY = './write-thread-entry.ts';",
      built: "const WRITE_THREAD_ENTRY = './mirror-write-thread.cjs';",
    },
  ];
  return {
    name: 'eo-workspace-threads',
    enforce: 'pre',
    transform(code, id) {
      const t = threads.find((x) => id.replaceAll('\\', '/').endsWith(x.file));
      if (!t) return null;
      if (!code.includes(t.original)) {
        throw new Error(`${t.file}: the thread entry changed; update electron.vite.config.ts`);
      }
      return code.replace(t.original, t.built);
    },
  };
}

export default defineConfig({
  main: {
    plugins: [workspaceMigrations(), workspaceThreads()],
    build: {
      externalizeDeps: { exclude: [...workspace, ...inlined] },
      rollupOptions: {
        // CommonJS: Electron documents ES modules for the main process, not for utility
        // processes; one format for both entries is the safe choice.
        output: {
          format: 'cjs',
          entryFileNames: '[name].cjs',
          // Next to the entries, not in a subfolder: the migrations path rewritten below is
          // relative to the file it ends up in, and code shared by two entries lands in a chunk.
          chunkFileNames: '[name]-[hash].cjs',
          // The two thread starters hold the text of a dynamic import (a thread's code, run in
          // the thread): a chunk of their own, so the chunks around them stay code-cached at
          // launch (src/backend/code-cache.ts compiles a chunk with such text as usual).
          codeSplitting: {
            groups: [
              { name: 'start-thread', test: /[\\/]src[\\/](worker|render)[\\/]start-thread\.ts$/ },
            ],
          },
        },
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // The backend's utilityProcess entry (src/backend over @eo/sync, embedded @eo/reference-service).
          'backend-process': resolve(__dirname, 'src/main/backend-process.ts'),
          // Browser mode's launcher (`npm start` without Electron): run as built JavaScript,
          // never compiled at launch (tsx cost ~0.3 s plus ~0.6 s importing the server sources).
          'browser-mode': resolve(__dirname, 'src/browser-mode/main.ts'),
          // The embedded service's render threads (workspaceThreads above).
          'render-thread': resolve(
            __dirname,
            '../../packages/reference-service/src/render/thread-entry.ts',
          ),
          // Field file imports, in a thread with memory and time limits (@eo/formats).
          'import-thread': resolve(__dirname, '../../packages/formats/src/worker/import-thread.ts'),
          // Index exports of offline rasters, in a thread with memory and time limits.
          'raster-index-thread': resolve(__dirname, 'src/backend/raster-index-thread.ts'),
          // Field packages checked before a merge, in a thread with memory and time limits.
          'package-check-thread': resolve(
            __dirname,
            '../../packages/sync/src/field-package/check-thread.ts',
          ),
          // A long sync list's batches, committed while the backend reads the next pages.
          'mirror-write-thread': resolve(
            __dirname,
            '../../packages/sync/src/pull/write-thread-entry.ts',
          ),
        },
      },
    },
  },
  preload: {
    // Sandboxed preloads cannot load ES modules: CommonJS, everything bundled in.
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [vue(), basemapData()],
    build: {
      // Minified (electron-vite leaves it off): the first screen's script is parsed and compiled
      // on every launch, and the development-only branches of Vue and vue-router go with it.
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // Everything the first screen loads before it draws in one chunk (rolldown's `$initial`:
        // the entry's static imports), not one file per module shared with a lazy part (19
        // files): what is loaded on first use still has chunks of its own (bench/initial-js.ts).
        output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } },
      },
    },
  },
});
