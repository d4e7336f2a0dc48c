/**
 * Band-math expressions (expression.ts) evaluated over many pixels at once: the desktop
 * computes indices over downloaded rasters with it, offline, and must give the value the
 * service's index maps give for the same pixels. The semantics are the service's
 * (packages/reference-service/docs/choices-imagery.md, "Index PNG"): a band's value is its surface reflectance
 * × `INDEX_BAND_FACTOR`, a division by zero is undefined (NaN), and an undefined input (nodata)
 * makes the result undefined. Every number and every intermediate value is float32 (what an
 * index raster stores), so a result is within float32 rounding of the service's float64 one.
 *
 * Vectorised, not per pixel through closures and never through `new Function` (the desktop's
 * CSP forbids eval): the AST is compiled once into a list of steps, and each step is one tight
 * loop over a chunk of pixels (`KERNEL_CHUNK`, small enough that every intermediate array stays
 * in the CPU cache). Constants are folded, constant operands stay scalars, and the normalised
 * difference `(a - b) / (a + b)` (NDVI, NDWI, NBR...) is one fused step.
 */
import { parseExpression, type ExprNode, type ParsedExpression } from './expression';

/** Band values in index expressions: surface reflectance × 1000 (the service's index maps). */
export const INDEX_BAND_FACTOR = 1000;

/** Pixels per chunk: 4 KiB per intermediate array. */
export const KERNEL_CHUNK = 1024;

/**
 * Fills `into[0..count)` with the values of the expression's band `band` (an index into
 * `ExpressionKernel.bands`) for pixels `start..start+count)`, in index units (reflectance ×
 * `INDEX_BAND_FACTOR`), NaN where the band has no data.
 */
export type BandLoader = (band: number, start: number, count: number, into: Float32Array) => void;

export interface ExpressionKernel {
  /** The bands the expression reads, in order of first use (`BandLoader`'s `band` indexes this). */
  readonly bands: readonly string[];
  /** Components: 1 for an index or grayscale, 3 for a composite. */
  readonly components: number;
  /** Evaluates `count` pixels into `out[c][0..count)`, one array per component. */
  evaluate(count: number, load: BandLoader, out: readonly Float32Array[]): void;
  /** One pixel: the components' values for the bands' values (in `bands` order). */
  evaluatePixel(values: readonly number[]): number[];
}

/** Where a step reads a value: a register (a chunk of values) or a constant. */
type Operand = { readonly reg: number } | { readonly value: number };

type Step =
  | { readonly kind: 'load'; readonly band: number; readonly dst: number }
  | { readonly kind: 'neg'; readonly a: Operand; readonly dst: number }
  | {
      readonly kind: 'binary';
      readonly op: '+' | '-' | '*' | '/';
      readonly a: Operand;
      readonly b: Operand;
      readonly dst: number;
    }
  /** (a - b) / (a + b), undefined where a + b is 0. */
  | { readonly kind: 'nd'; readonly a: Operand; readonly b: Operand; readonly dst: number };

type Loop = (a: Float32Array, b: Float32Array, d: Float32Array, n: number) => void;
type LoopC = (a: Float32Array, c: number, d: Float32Array, n: number) => void;

/**
 * Where a quotient's divisor was 0, the service's rule makes it undefined (NaN), not ±Infinity.
 * The loops divide without a branch and remember whether anything was not finite (`x * 0` is
 * NaN for ±Infinity and NaN); only such a chunk is looked at again. A branch in the loop
 * (`d[i] = r === 0 ? NaN : a / r`) made it 3 to 4 times slower in V8.
 */
function undefinedWhereZero(divisor: Float32Array, d: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) if (divisor[i] === 0) d[i] = NaN;
}

// One monomorphic loop per operation and operand shape: what the JIT compiles tightly.
const RR: Record<'+' | '-' | '*' | '/', Loop> = {
  '+': (a, b, d, n) => {
    for (let i = 0; i < n; i++) d[i] = a[i]! + b[i]!;
  },
  '-': (a, b, d, n) => {
    for (let i = 0; i < n; i++) d[i] = a[i]! - b[i]!;
  },
  '*': (a, b, d, n) => {
    for (let i = 0; i < n; i++) d[i] = a[i]! * b[i]!;
  },
  '/': (a, b, d, n) => {
    let bad = 0;
    for (let i = 0; i < n; i++) {
      const q = a[i]! / b[i]!;
      d[i] = q;
      bad += q * 0;
    }
    if (bad !== 0) undefinedWhereZero(b, d, n);
  },
};

/** (a - b) / (a + b), with the sum kept in `sum` for the zero check. */
function normalisedDifferenceLoop(
  a: Float32Array,
  b: Float32Array,
  d: Float32Array,
  sum: Float32Array,
  n: number,
): void {
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    // Rounded as the unfused steps would store them: the same float32 values either way.
    const q = Math.fround(x - y) / Math.fround(x + y);
    d[i] = q;
    bad += q * 0;
  }
  if (bad === 0) return;
  for (let i = 0; i < n; i++) sum[i] = a[i]! + b[i]!;
  undefinedWhereZero(sum, d, n);
}

/** Register op constant. */
const RC: Record<'+' | '-' | '*' | '/', LoopC> = {
  '+': (a, c, d, n) => {
    for (let i = 0; i < n; i++) d[i] = a[i]! + c;
  },
  '-': (a, c, d, n) => {
    for (let i = 0; i < n; i++) d[i] = a[i]! - c;
  },
  '*': (a, c, d, n) => {
    for (let i = 0; i < n; i++) d[i] = a[i]! * c;
  },
  '/': (a, c, d, n) => {
    if (c === 0) d.fill(NaN, 0, n);
    else for (let i = 0; i < n; i++) d[i] = a[i]! / c;
  },
};
/** Constant op register. */
const CR: Record<'+' | '-' | '*' | '/', LoopC> = {
  '+': (b, c, d, n) => {
    for (let i = 0; i < n; i++) d[i] = c + b[i]!;
  },
  '-': (b, c, d, n) => {
    for (let i = 0; i < n; i++) d[i] = c - b[i]!;
  },
  '*': (b, c, d, n) => {
    for (let i = 0; i < n; i++) d[i] = c * b[i]!;
  },
  '/': (b, c, d, n) => {
    let bad = 0;
    for (let i = 0; i < n; i++) {
      const q = c / b[i]!;
      d[i] = q;
      bad += q * 0;
    }
    if (bad !== 0) undefinedWhereZero(b, d, n);
  },
};

/** The scalar operation, with the service's rule for division. */
function apply(op: '+' | '-' | '*' | '/', l: number, r: number): number {
  if (op === '+') return l + r;
  if (op === '-') return l - r;
  if (op === '*') return l * r;
  return r === 0 ? NaN : l / r;
}

const same = (a: ExprNode, b: ExprNode): boolean => {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'number':
      return a.value === (b as typeof a).value;
    case 'band':
      return a.name === (b as typeof a).name;
    case 'neg':
      return same(a.operand, (b as typeof a).operand);
    case 'binary': {
      const o = b as typeof a;
      return a.op === o.op && same(a.left, o.left) && same(a.right, o.right);
    }
  }
};

/** `(a - b) / (a + b)` or `(a - b) / (b + a)`: its a and b, else null. */
function normalisedDifference(n: ExprNode): [ExprNode, ExprNode] | null {
  if (n.kind !== 'binary' || n.op !== '/') return null;
  const { left: top, right: bottom } = n;
  if (top.kind !== 'binary' || top.op !== '-' || bottom.kind !== 'binary' || bottom.op !== '+')
    return null;
  const [a, b] = [top.left, top.right];
  if (same(a, bottom.left) && same(b, bottom.right)) return [a, b];
  if (same(a, bottom.right) && same(b, bottom.left)) return [a, b];
  return null;
}

function compileSteps(parsed: ParsedExpression) {
  const steps: Step[] = [];
  let regs = 0;
  const loaded = new Map<number, number>();
  const operand = (n: ExprNode): Operand => {
    switch (n.kind) {
      case 'number':
        return { value: Math.fround(n.value) };
      case 'band': {
        const band = parsed.bands.indexOf(n.name);
        let reg = loaded.get(band);
        if (reg === undefined) {
          reg = regs++;
          loaded.set(band, reg);
          steps.push({ kind: 'load', band, dst: reg });
        }
        return { reg };
      }
      case 'neg': {
        const a = operand(n.operand);
        if ('value' in a) return { value: -a.value };
        const dst = regs++;
        steps.push({ kind: 'neg', a, dst });
        return { reg: dst };
      }
      case 'binary': {
        const nd = normalisedDifference(n);
        if (nd) {
          const a = operand(nd[0]);
          const b = operand(nd[1]);
          if ('value' in a && 'value' in b)
            return {
              value: Math.fround(
                apply('/', Math.fround(a.value - b.value), Math.fround(a.value + b.value)),
              ),
            };
          const dst = regs++;
          steps.push({ kind: 'nd', a, b, dst });
          return { reg: dst };
        }
        const a = operand(n.left);
        const b = operand(n.right);
        if ('value' in a && 'value' in b)
          return { value: Math.fround(apply(n.op, a.value, b.value)) };
        const dst = regs++;
        steps.push({ kind: 'binary', op: n.op, a, b, dst });
        return { reg: dst };
      }
    }
  };
  const results = parsed.components.map(operand);
  return { steps, regs, results };
}

function runStep(s: Step, r: Float32Array[], n: number, load: BandLoader, start: number): void {
  const reg = (o: Operand) => r[(o as { reg: number }).reg]!;
  switch (s.kind) {
    case 'load':
      load(s.band, start, n, r[s.dst]!);
      return;
    case 'neg':
      RC['*'](reg(s.a), -1, r[s.dst]!, n);
      return;
    case 'nd': {
      if ('reg' in s.a && 'reg' in s.b)
        return normalisedDifferenceLoop(reg(s.a), reg(s.b), r[s.dst]!, r[r.length - 1]!, n);
      // A constant side: rare; go through the general loops.
      const d = r[s.dst]!;
      for (let i = 0; i < n; i++) {
        const x = 'reg' in s.a ? r[s.a.reg]![i]! : s.a.value;
        const y = 'reg' in s.b ? r[s.b.reg]![i]! : s.b.value;
        d[i] = apply('/', Math.fround(x - y), Math.fround(x + y));
      }
      return;
    }
    case 'binary':
      if ('reg' in s.a && 'reg' in s.b) return RR[s.op](reg(s.a), reg(s.b), r[s.dst]!, n);
      if ('reg' in s.a) return RC[s.op](reg(s.a), (s.b as { value: number }).value, r[s.dst]!, n);
      return CR[s.op](reg(s.b), (s.a as { value: number }).value, r[s.dst]!, n);
  }
}

/** Compiles an expression (its text, or parsed) into a kernel; throws `ExpressionError`. */
export function compileExpression(expression: string | ParsedExpression): ExpressionKernel {
  const parsed = typeof expression === 'string' ? parseExpression(expression) : expression;
  const { steps, regs, results } = compileSteps(parsed);
  // One more register: scratch for the normalised difference's zero check.
  const registers = Array.from({ length: regs + 1 }, () => new Float32Array(KERNEL_CHUNK));
  return {
    bands: parsed.bands,
    components: results.length,
    evaluate(count, load, out) {
      for (let start = 0; start < count; start += KERNEL_CHUNK) {
        const n = Math.min(KERNEL_CHUNK, count - start);
        for (const s of steps) runStep(s, registers, n, load, start);
        results.forEach((res, c) => {
          const o = out[c]!;
          if ('value' in res) o.fill(res.value, start, start + n);
          else
            o.set(
              n === KERNEL_CHUNK ? registers[res.reg]! : registers[res.reg]!.subarray(0, n),
              start,
            );
        });
      }
    },
    evaluatePixel(values) {
      const out = results.map(() => new Float32Array(1));
      this.evaluate(1, (band, _start, _count, into) => (into[0] = values[band] ?? NaN), out);
      return out.map((o) => o[0]!);
    },
  };
}
