/**
 * What the renderer's initial JS is made of: builds the renderer in memory (electron-vite's
 * own renderer config, nothing written) and reads the bundler's module map of the chunks the
 * entry loads before the app starts (the entry and its static imports, which index.html
 * preloads). Used by `bench/initial-modules.ts` (the top modules by size) and by
 * `vite/__tests__/initial-chunk.spec.ts` (modules that must stay lazy).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from 'electron-vite';
import { build, type Plugin, type Rolldown } from 'vite';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(appDir, '..', '..');

export interface BundledModule {
  /** Repo-relative source path (`apps/desktop/src/...`, `node_modules/.pnpm/vue@.../...`). */
  id: string;
  /** Bytes the module takes in its chunk after minification. */
  bytes: number;
  chunk: string;
}

export interface RendererModules {
  /** The initial chunks' modules, largest first. */
  initial: BundledModule[];
  /** Every other chunk's modules (dynamic imports), largest first. */
  lazy: BundledModule[];
  /** Each module's static importers (repo-relative ids): why a module is where it is. */
  importers: Map<string, string[]>;
  /** The entry modules (index.html). */
  entries: string[];
}

const shortId = (id: string) =>
  path.relative(repoRoot, id.replace(/^\0/, '').replace(/\?.*$/, '')).replaceAll('\\', '/');

/** Builds the renderer as `electron-vite build` does, in memory, and splits its module map. */
export async function rendererModules(): Promise<RendererModules> {
  const resolved = await resolveConfig({ root: appDir, logLevel: 'error' }, 'build', 'production');
  const renderer = resolved.config?.renderer;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer config');
  const importers = new Map<string, string[]>();
  const recordImporters: Plugin = {
    name: 'eo-record-importers',
    generateBundle() {
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        // A .vue file is several modules (?vue&type=script, style...): one entry for them all.
        const key = shortId(id);
        const from = (info?.importers ?? []).map(shortId).filter((f) => f !== key);
        importers.set(key, [...new Set([...(importers.get(key) ?? []), ...from])]);
      }
    },
  };
  const out = await build({
    ...renderer,
    plugins: [...(renderer.plugins ?? []), recordImporters],
    logLevel: 'error',
    build: { ...renderer.build, write: false, reportCompressedSize: false },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[];
  const chunks = outputs
    .flatMap((o) => o.output)
    .filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const initialFiles = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
  for (const file of initialFiles) {
    for (const imported of byName.get(file)?.imports ?? []) initialFiles.add(imported);
  }
  const initial: BundledModule[] = [];
  const lazy: BundledModule[] = [];
  for (const c of chunks) {
    for (const [id, m] of Object.entries(c.modules)) {
      if (m.renderedLength === 0) continue;
      const entry = { id: shortId(id), bytes: m.renderedLength, chunk: c.fileName };
      (initialFiles.has(c.fileName) ? initial : lazy).push(entry);
    }
  }
  const bySize = (a: BundledModule, b: BundledModule) => b.bytes - a.bytes;
  const entries = chunks
    .filter((c) => c.isEntry && c.facadeModuleId)
    .map((c) => shortId(c.facadeModuleId as string));
  return { initial: initial.sort(bySize), lazy: lazy.sort(bySize), importers, entries };
}

/** The shortest chain of static imports from an entry to `id` through the initial chunks. */
export function importChain(bundle: RendererModules, id: string): string[] {
  const initial = new Set(bundle.initial.map((m) => m.id));
  const via = new Map<string, string | null>([[id, null]]);
  const queue = [id];
  for (const at of queue) {
    if (bundle.entries.includes(at)) {
      const chain: string[] = [];
      for (let x: string | null = at; x; x = via.get(x) ?? null) chain.push(x);
      return chain;
    }
    for (const from of bundle.importers.get(at) ?? []) {
      if ((initial.has(from) || bundle.entries.includes(from)) && !via.has(from)) {
        via.set(from, at);
        queue.push(from);
      }
    }
  }
  return [id];
}
