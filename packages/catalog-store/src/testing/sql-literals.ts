/**
 * Every SQL statement written as a string in a package's sources, found by parsing them (not by
 * running them), so a test can prepare each one against a freshly migrated database: SQLite
 * refuses to prepare a statement that names a table, column or function it does not have. This
 * is how the hand-written SQL is held to the one table description, the drizzle schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import ts from 'typescript';
import { installTimeFunction } from '../search';
import { installSpatialFunctions } from '../spatial-sql';

export interface SqlLiteral {
  /** `path/relative/to/the/root.ts:line`. */
  readonly at: string;
  readonly sql: string;
}

export interface SqlLiterals {
  /** Statements whose whole text is known: plain strings, and templates of constants. */
  readonly checked: SqlLiteral[];
  /**
   * Templates with a part computed at run time (a column list, a WHERE clause): their text is
   * not known here, so they are listed, not prepared.
   */
  readonly dynamic: SqlLiteral[];
}

// Keywords in capitals, as this repository writes SQL: prose ("Select scene pairs") is not SQL.
const STATEMENT = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|REPLACE)\s/;

/** Folders of test-only code (tests, `/testing` entries): not the SQL the package runs. */
const TEST_ONLY = new Set(['__tests__', 'testing', 'node_modules']);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!TEST_ONLY.has(entry.name)) yield* sourceFiles(full);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** The string a module-level `const NAME = <string expression>` of the same file holds, if any. */
function constants(file: ts.SourceFile): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of statement.declarationList.declarations)
      if (ts.isIdentifier(d.name) && d.initializer) found.set(d.name.text, d.initializer);
  }
  return found;
}

function textOf(e: ts.Expression, consts: Map<string, ts.Expression>, depth = 0): string | null {
  if (depth > 8) return null;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isParenthesizedExpression(e)) return textOf(e.expression, consts, depth + 1);
  if (ts.isIdentifier(e)) {
    const init = consts.get(e.text);
    return init ? textOf(init, consts, depth + 1) : null;
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const l = textOf(e.left, consts, depth + 1);
    const r = textOf(e.right, consts, depth + 1);
    return l === null || r === null ? null : l + r;
  }
  if (ts.isTemplateExpression(e)) {
    let out = e.head.text;
    for (const span of e.templateSpans) {
      const part = textOf(span.expression, consts, depth + 1);
      if (part === null) return null;
      out += part + span.literal.text;
    }
    return out;
  }
  return null;
}

/** The literal text a template or `a + b + ...` concatenation starts with. */
function headOf(e: ts.Expression): string | undefined {
  while (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) e = e.left;
  if (ts.isTemplateExpression(e)) return e.head.text;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  return undefined;
}

/** The SQL statements written in the `.ts` files under `dir` (test-only folders excluded). */
export function sqlLiterals(dir: string, root = dir): SqlLiterals {
  const checked: SqlLiteral[] = [];
  const dynamic: SqlLiteral[] = [];
  for (const f of sourceFiles(dir)) {
    const file = ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
    const consts = constants(file);
    const at = (n: ts.Node) =>
      `${path.relative(root, f)}:${file.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
        // A literal that is one operand of a `+` is read with the whole expression.
        if (STATEMENT.test(n.text) && !ts.isBinaryExpression(n.parent))
          checked.push({ at: at(n), sql: n.text });
        return;
      }
      if (ts.isTemplateExpression(n) || ts.isBinaryExpression(n)) {
        const head = headOf(n);
        if (head !== undefined && STATEMENT.test(head)) {
          const sql = textOf(n, consts);
          if (sql === null) dynamic.push({ at: at(n), sql: n.getText() });
          else checked.push({ at: at(n), sql });
          return;
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return { checked, dynamic };
}

/** `at: message` for every statement SQLite will not prepare on this database. */
export function unpreparable(sqlite: Database.Database, statements: readonly SqlLiteral[]) {
  const failed: string[] = [];
  for (const s of statements) {
    try {
      sqlite.prepare(s.sql);
    } catch (err) {
      failed.push(`${s.at}: ${(err as Error).message}`);
    }
  }
  return failed;
}

/**
 * The check a schema owner's `sql-names` test runs: every statement written out under `dir`,
 * prepared on `sqlite` (a freshly migrated database) with the catalog's SQL functions installed
 * as the search installs them. `unpreparable` is empty when every name exists.
 */
export function sqlNameCheck(sqlite: Database.Database, dir: string) {
  installTimeFunction(sqlite);
  installSpatialFunctions(sqlite);
  const found = sqlLiterals(dir);
  return { ...found, unpreparable: unpreparable(sqlite, found.checked) };
}
