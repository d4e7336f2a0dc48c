/**
 * The renderer's initial JS by module: the largest modules of the chunks the first screen
 * loads before it can draw (vite/renderer-modules.ts builds the renderer in memory and reads
 * the bundler's module map). A measuring aid for `bench/initial-js.ts`, not a bench: no target.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/initial-modules.ts [--top 20] [--lazy]
 *     [--why <part of a module path>]   (an import chain from the entry to that module)
 *     [--cut <part>[,<part>...]]         (what leaves the initial JS if those were imported lazily)
 */
import { importChain, rendererModules } from '../vite/renderer-modules';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 20;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const bundle = await rendererModules();
const { initial, lazy, importers, entries } = bundle;
const list = args.includes('--lazy') ? lazy : initial;
const total = list.reduce((s, m) => s + m.bytes, 0);
console.log(
  `${args.includes('--lazy') ? 'lazy' : 'initial'} JS: ${list.length} modules, ${kb(total)} (minified, before gzip)`,
);
// Folders of one package or feature, summed, then the single modules.
const groups = new Map<string, number>();
for (const m of list) {
  const pkg = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m.id)?.[1];
  const folder = pkg ?? m.id.split('/').slice(0, -1).join('/');
  groups.set(folder, (groups.get(folder) ?? 0) + m.bytes);
}
console.log('by package or folder:');
for (const [folder, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${kb(bytes).padStart(9)}  ${folder}`);
}
console.log(`top ${top} modules:`);
for (const m of list.slice(0, top)) console.log(`  ${kb(m.bytes).padStart(9)}  ${m.id}`);

const whyAt = args.indexOf('--why');
if (whyAt >= 0) {
  const target = initial.find((m) => m.id.includes(args[whyAt + 1] ?? '\0'));
  if (!target) throw new Error(`no initial module matches ${args[whyAt + 1]}`);
  console.log(`why ${target.id}:`);
  for (const id of importChain(bundle, target.id)) console.log(`  ${id}`);
}

const cutAt = args.indexOf('--cut');
if (cutAt >= 0) {
  // Static imports from the entry, not following into the cut modules: what is left is what
  // the initial JS would hold if those were loaded on first use.
  const cut = (args[cutAt + 1] ?? '').split(',').filter(Boolean);
  const isCut = (id: string) => cut.some((c) => id.includes(c));
  const imports = new Map<string, string[]>();
  for (const [id, from] of importers) {
    for (const f of from) imports.set(f, [...(imports.get(f) ?? []), id]);
  }
  const kept = new Set(entries);
  for (const id of kept) {
    for (const to of imports.get(id) ?? []) if (!isCut(to)) kept.add(to);
  }
  const dropped = initial.filter((m) => !kept.has(m.id));
  const bytes = dropped.reduce((s, m) => s + m.bytes, 0);
  console.log(
    `cut ${cut.join(', ')}: ${kb(bytes)} leaves the initial JS (${dropped.length} modules)`,
  );
  for (const m of dropped.slice(0, top)) console.log(`  ${kb(m.bytes).padStart(9)}  ${m.id}`);
}
