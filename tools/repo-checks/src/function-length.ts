/**
 * Functions longer than the style's limit (200 lines, CONTRIBUTING.md), found with the
 * TypeScript parser in every source file of the workspace but tests. A function is named by the
 * chain of named functions it sits in (`createOutbox > runFlush`); a callback by what it is
 * passed to (`quoteOrder > (callback of db.transaction)`), so a name holds while lines move.
 * Run by `__tests__/function-length.spec.ts` against the allowlist beside it
 * (`long-functions.json`), which may only shrink.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 200;

export interface LongFunction {
  /** Path from the repository root, with `/`. */
  readonly file: string;
  readonly name: string;
  readonly lines: number;
}

const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', '__tests__', 'test', '.turbo']);

/**
 * The TypeScript sources of `roots` under `root` (and Vue single-file components with `vue`),
 * tests, declarations and build output left out; paths relative to `root`.
 */
export function sourceFiles(
  root: string,
  roots: readonly string[],
  opts: { readonly vue?: boolean } = {},
): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(e.name)) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ts$/.test(e.name) && !/\.(d|spec)\.ts$/.test(e.name)) out.push(p);
      else if (opts.vue && e.name.endsWith('.vue')) out.push(p);
    }
  };
  for (const r of roots) walk(path.join(root, r));
  return out.map((p) => path.relative(root, p).split(path.sep).join('/')).sort();
}

function ownName(node: ts.Node): string | null {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText()})`;
  return null;
}

/** The functions of one source text over `max` lines. */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node, chain: readonly string[]): void => {
    let inner = chain;
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      inner = [...chain, ownName(node) ?? '(anonymous)'];
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, name: inner.join(' > '), lines });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return found;
}

/** Every function over `max` lines in the workspace's sources. */
export function longFunctions(root: string, roots: readonly string[], max = MAX_FUNCTION_LINES) {
  return sourceFiles(root, roots).flatMap((file) =>
    longFunctionsIn(file, fs.readFileSync(path.join(root, file), 'utf8'), max),
  );
}
