/**
 * Band-math expressions of indices and visualizations (spec 2.8, 2.9), e.g.
 * `(B08 - B04) / (B08 + B04)`. Grammar:
 *
 *   expression := component ("," component)*        -- composites list 3 components (R,G,B)
 *   component  := term (("+" | "-") term)*
 *   term       := unary (("*" | "/") unary)*          -- also "×" and "÷"
 *   unary      := "-" unary | primary
 *   primary    := number | band | "(" component ")"
 *   band       := letter (letter | digit | "_")*
 *
 * The parser is shared: the server rejects a bad expression with a 400, and the desktop's
 * editor checks it (and its bands) before queueing.
 */
import type { ExpressionType } from './enums';

export type ExprNode =
  | { kind: 'number'; value: number }
  | { kind: 'band'; name: string }
  | { kind: 'neg'; operand: ExprNode }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: ExprNode; right: ExprNode };

export interface ParsedExpression {
  readonly components: ExprNode[];
  /** Distinct band identifiers in order of first use. */
  readonly bands: string[];
}

export class ExpressionError extends Error {
  constructor(
    message: string,
    /** 0-based character offset of the problem. */
    readonly position: number,
  ) {
    super(`${message} at position ${position + 1}`);
    this.name = 'ExpressionError';
  }
}

type Token =
  | { t: 'num'; v: number; pos: number }
  | { t: 'id'; v: string; pos: number }
  | { t: 'op'; v: '+' | '-' | '*' | '/' | '(' | ')' | ','; pos: number }
  | { t: 'end'; pos: number };

const OPS: Record<string, '+' | '-' | '*' | '/' | '(' | ')' | ','> = {
  '+': '+',
  '-': '-',
  '−': '-',
  '*': '*',
  '×': '*',
  '/': '/',
  '÷': '/',
  '(': '(',
  ')': ')',
  ',': ',',
};

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(i));
      if (!m) throw new ExpressionError(`malformed number`, i);
      out.push({ t: 'num', v: Number(m[0]), pos: i });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      const m = /^[A-Za-z][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    const op = OPS[c];
    if (!op) throw new ExpressionError(`unexpected character ${JSON.stringify(c)}`, i);
    out.push({ t: 'op', v: op, pos: i });
    i++;
  }
  out.push({ t: 'end', pos: src.length });
  return out;
}

export function parseExpression(src: string): ParsedExpression {
  const tokens = tokenize(src);
  let k = 0;
  const bands: string[] = [];
  const peek = () => tokens[k]!;
  const isOp = (v: string) => {
    const t = peek();
    return t.t === 'op' && t.v === v;
  };

  function primary(): ExprNode {
    const t = peek();
    if (t.t === 'num') {
      k++;
      return { kind: 'number', value: t.v };
    }
    if (t.t === 'id') {
      k++;
      if (!bands.includes(t.v)) bands.push(t.v);
      return { kind: 'band', name: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      k++;
      const inner = sum();
      if (!isOp(')')) throw new ExpressionError('expected ")"', peek().pos);
      k++;
      return inner;
    }
    if (t.t === 'end') throw new ExpressionError('the expression ends too early', t.pos);
    throw new ExpressionError(`unexpected ${JSON.stringify(t.v)}`, t.pos);
  }
  function unary(): ExprNode {
    if (isOp('-')) {
      k++;
      return { kind: 'neg', operand: unary() };
    }
    if (isOp('+')) {
      k++;
      return unary();
    }
    return primary();
  }
  function product(): ExprNode {
    let left = unary();
    while (isOp('*') || isOp('/')) {
      const op = (peek() as { v: '*' | '/' }).v;
      k++;
      left = { kind: 'binary', op, left, right: unary() };
    }
    return left;
  }
  function sum(): ExprNode {
    let left = product();
    while (isOp('+') || isOp('-')) {
      const op = (peek() as { v: '+' | '-' }).v;
      k++;
      left = { kind: 'binary', op, left, right: product() };
    }
    return left;
  }

  if (tokens.length === 1) throw new ExpressionError('the expression is empty', 0);
  const components = [sum()];
  while (isOp(',')) {
    k++;
    components.push(sum());
  }
  const t = peek();
  if (t.t !== 'end')
    throw new ExpressionError(
      `unexpected ${JSON.stringify(t.t === 'num' || t.t === 'id' || t.t === 'op' ? t.v : '')}`,
      t.pos,
    );
  return { components, bands };
}

export interface ExpressionProblem {
  message: string;
  position?: number;
}

/**
 * Everything wrong with an expression for a given type and (optionally) the bands a satellite
 * offers; an empty list means it is acceptable.
 */
export function checkExpression(
  src: string,
  type: ExpressionType,
  availableBands?: readonly string[],
): { problems: ExpressionProblem[]; bands: string[] } {
  let parsed: ParsedExpression;
  try {
    parsed = parseExpression(src);
  } catch (e) {
    if (e instanceof ExpressionError)
      return { problems: [{ message: e.message, position: e.position }], bands: [] };
    throw e;
  }
  const problems: ExpressionProblem[] = [];
  const n = parsed.components.length;
  if (type === 'composite' && n !== 3) {
    problems.push({
      message: `a composite expression has 3 comma-separated components (red, green, blue), found ${n}`,
    });
  }
  if (type !== 'composite' && n !== 1) {
    // "a grayscale", "an index": the article follows the type (was always "an").
    const article = /^[aeiou]/.test(type) ? 'an' : 'a';
    problems.push({
      message: `${article} ${type} expression has a single component, found ${n} separated by commas`,
    });
  }
  if (parsed.bands.length === 0) problems.push({ message: 'the expression uses no band' });
  if (availableBands) {
    const unknown = parsed.bands.filter((b) => !availableBands.includes(b));
    if (unknown.length > 0) {
      problems.push({
        message: `unknown band${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; this satellite has ${availableBands.join(', ')}`,
      });
    }
  }
  return { problems, bands: parsed.bands };
}
