/**
 * Import loops between source files, from their static `import`/`export … from` lines (relative
 * paths only: packages are held one way by lint). `import()` is a loading edge, not a dependency,
 * and is left out; `import type` lines can be left out too (they vanish when compiled).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './function-length';

/**
 * `import …`/`export … from './x'` (group 1: `type `, group 2: the path) or `import './x'` (group
 * 3). Between the keyword and `from` no quote, semicolon or parenthesis: a match never spans a
 * statement or a function body.
 */
const STATIC =
  /^\s*(?:import|export)\s+(type\s+)?[^'";()]*?\sfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]/gm;

/** Every .ts and .vue source file below `dir` (tests, declarations, build output left out). */
export function sourceFilesIn(dir: string): string[] {
  return sourceFiles(dir, ['.'], { vue: true }).map((f) => path.join(dir, f));
}

/** Each file's imports of other files in `files`, as resolved paths. */
export function importGraph(
  files: readonly string[],
  opts: { typeOnly: boolean },
): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    const p = path.resolve(path.dirname(from), spec);
    const tries = [p, `${p}.ts`, `${p}.vue`, path.join(p, 'index.ts'), p.replace(/\.js$/, '.ts')];
    return tries.find((t) => known.has(t));
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const to = new Set<string>();
    for (const m of text.matchAll(STATIC)) {
      if (m[1] && !opts.typeOnly) continue;
      const target = resolve(file, (m[2] ?? m[3])!);
      if (target) to.add(target);
    }
    graph.set(file, [...to]);
  }
  return graph;
}

/** The loops of a graph: its strongly connected parts of two or more files (Tarjan). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        part.push(w);
        if (w === v) break;
      }
      if (part.length > 1) cycles.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
