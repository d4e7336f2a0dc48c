import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  INDEX_BAND_FACTOR,
  KERNEL_CHUNK,
  parseExpression,
  type ExprNode,
} from '../index';

/**
 * The service's per-pixel evaluation (packages/reference-service/src/imagery/index-png.ts), with `round`
 * applied to every value: identity for the service's float64, `Math.fround` for float32.
 */
function reference(node: ExprNode, bands: Map<string, number>, round = (x: number) => x): number {
  const ev = (n: ExprNode) => reference(n, bands, round);
  switch (node.kind) {
    case 'number':
      return round(node.value);
    case 'band':
      return round(bands.get(node.name) ?? NaN);
    case 'neg':
      return round(-ev(node.operand));
    case 'binary': {
      const l = ev(node.left);
      const r = ev(node.right);
      if (node.op === '+') return round(l + r);
      if (node.op === '-') return round(l - r);
      if (node.op === '*') return round(l * r);
      return r === 0 ? NaN : round(l / r);
    }
  }
}

/** Evaluates `src` over planar band arrays with the kernel. */
function run(src: string, planes: Record<string, Float32Array>, count: number): Float32Array[] {
  const k = compileExpression(src);
  const out = Array.from({ length: k.components }, () => new Float32Array(count));
  k.evaluate(
    count,
    (band, start, n, into) => into.set(planes[k.bands[band]!]!.subarray(start, start + n)),
    out,
  );
  return out;
}

const same = (a: number, b: number) => (Number.isNaN(a) ? Number.isNaN(b) : a === b);

describe('compileExpression', () => {
  it('NDVI over many pixels is the service value to float32 precision; 0/0 and nodata undefined', () => {
    const n = KERNEL_CHUNK * 3 + 17; // several chunks and a short last one
    const nir = new Float32Array(n);
    const red = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      nir[i] = ((i * 37) % 700) * (0.0001 * INDEX_BAND_FACTOR);
      red[i] = ((i * 11) % 300) * (0.0001 * INDEX_BAND_FACTOR);
    }
    nir[5] = 0;
    red[5] = 0; // 0 / 0
    nir[9] = NaN; // nodata
    const [out] = run('(B08 - B04) / (B08 + B04)', { B08: nir, B04: red }, n);
    const ast = parseExpression('(B08 - B04) / (B08 + B04)').components[0]!;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const bands = new Map([
        ['B08', nir[i]!],
        ['B04', red[i]!],
      ]);
      const service = reference(ast, bands);
      if (Number.isNaN(service)) expect(out![i], `pixel ${i}`).toBeNaN();
      else worst = Math.max(worst, Math.abs(out![i]! - service));
      expect(same(out![i]!, reference(ast, bands, Math.fround)), `pixel ${i}`).toBe(true);
    }
    expect(worst).toBeLessThan(1e-6);
    expect(out![5]).toBeNaN();
    expect(out![9]).toBeNaN();
  });

  it('any expression: the service evaluation in float32, pixel for pixel (property)', () => {
    const names = ['B02', 'B03', 'B04', 'B08'];
    const leaf = fc.oneof(
      fc.constantFrom(...names),
      fc.integer({ min: 0, max: 5 }).map(String),
      fc.constantFrom('0.5', '0.1', '2.5'),
    );
    const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc
          .tuple(tie('e'), fc.constantFrom('+', '-', '*', '/'), tie('e'))
          .map(([a, op, b]) => `(${a} ${op} ${b})`),
        tie('e').map((a) => `-${a}`),
        fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a} - ${b}) / (${a} + ${b})`),
      ),
    })).e;
    const raw = fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(expr, raw, (src, values) => {
        const planes = Object.fromEntries(
          names.map((b, i) => {
            const v = values[i] === 0 ? NaN : values[i]! * 0.1;
            return [b, Float32Array.of(v, v * 0.5, 0)];
          }),
        );
        const parsed = parseExpression(src);
        const [out] = run(src, planes, 3);
        for (let p = 0; p < 3; p++) {
          const bands = new Map(names.map((b) => [b, planes[b]![p]!]));
          const want = reference(parsed.components[0]!, bands, Math.fround);
          if (!same(out![p]!, want)) throw new Error(`${src} at pixel ${p}: ${out![p]} vs ${want}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('composites give three components; a pixel evaluates as the arrays do', () => {
    const k = compileExpression('B04, B03 * 2, (B02 + 1) / 0');
    expect(k.components).toBe(3);
    expect(k.bands).toEqual(['B04', 'B03', 'B02']);
    expect(k.evaluatePixel([50, 30, 20])).toEqual([50, 60, NaN]);
    // the normalised difference with its sum written the other way round
    expect(compileExpression('(B03 - B08) / (B08 + B03)').evaluatePixel([20, 60])).toEqual([
      Math.fround(-40 / 80),
    ]);
    // constants fold; a constant operand on either side
    expect(compileExpression('2 * 3 - B04').evaluatePixel([1])).toEqual([5]);
    expect(compileExpression('10 / B04').evaluatePixel([0])).toEqual([NaN]);
    expect(compileExpression('B04 / 0').evaluatePixel([4])).toEqual([NaN]);
    expect(compileExpression('(B04 - 4) / (B04 + -4)').evaluatePixel([4])).toEqual([NaN]);
  });
});
