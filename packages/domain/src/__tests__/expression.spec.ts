import { describe, expect, it } from 'vitest';
import { type ExprNode, ExpressionError, checkExpression, parseExpression } from '../index';

/** Fully parenthesised rendering of a tree, to assert structure compactly. */
function show(n: ExprNode): string {
  switch (n.kind) {
    case 'number':
      return String(n.value);
    case 'band':
      return n.name;
    case 'neg':
      return `(-${show(n.operand)})`;
    case 'binary':
      return `(${show(n.left)} ${n.op} ${show(n.right)})`;
  }
}
const tree = (src: string) => parseExpression(src).components.map(show);

function errorOf(src: string): ExpressionError {
  try {
    parseExpression(src);
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw e;
  }
  throw new Error(`${src} parsed`);
}

describe('parseExpression', () => {
  it('precedence: * and / bind tighter than + and -', () => {
    expect(tree('B1 + B2 * B3')).toEqual(['(B1 + (B2 * B3))']);
    expect(tree('B1 * B2 + B3')).toEqual(['((B1 * B2) + B3)']);
    expect(tree('B1 - B2 / B3 - 4')).toEqual(['((B1 - (B2 / B3)) - 4)']);
  });

  it('left associativity', () => {
    expect(tree('B1 - B2 - B3')).toEqual(['((B1 - B2) - B3)']);
    expect(tree('B1 / B2 / 2')).toEqual(['((B1 / B2) / 2)']);
  });

  it('parentheses override precedence', () => {
    expect(tree('(B08 - B04) / (B08 + B04)')).toEqual(['((B08 - B04) / (B08 + B04))']);
    expect(tree('((B1))')).toEqual(['B1']);
  });

  it('unary minus binds tighter than *, and stacks; unary plus is dropped', () => {
    expect(tree('-B1 * B2')).toEqual(['((-B1) * B2)']);
    expect(tree('B1 * -B2')).toEqual(['(B1 * (-B2))']);
    expect(tree('--B1')).toEqual(['(-(-B1))']);
    expect(tree('-(B1 + 1)')).toEqual(['(-(B1 + 1))']);
    expect(tree('+B1')).toEqual(['B1']);
  });

  it('unicode operators × ÷ − mean * / -', () => {
    expect(tree('(B08 − B04) ÷ (B08 + B04) × 2')).toEqual(tree('(B08 - B04) / (B08 + B04) * 2'));
    expect(tree('−B1')).toEqual(['(-B1)']);
  });

  it('numbers: integers, decimals, leading dot, exponents', () => {
    expect(tree('2.5 * B1 + .5 - 1e3 + 2E-2')).toEqual(['((((2.5 * B1) + 0.5) - 1000) + 0.02)']);
  });

  it('bands: distinct identifiers in order of first use', () => {
    expect(parseExpression('(nir - red) / (nir + red + blue_2)').bands).toEqual([
      'nir',
      'red',
      'blue_2',
    ]);
    expect(parseExpression('B04, B03, B02').bands).toEqual(['B04', 'B03', 'B02']);
    expect(parseExpression('1 + 2').bands).toEqual([]);
  });

  it('components are comma-separated', () => {
    expect(tree('B04, B03 * 2, B02')).toEqual(['B04', '(B03 * 2)', 'B02']);
  });

  it.each([
    ['', 'the expression is empty', 0],
    ['   ', 'the expression is empty', 0],
    ['B1 +', 'the expression ends too early', 4],
    ['(B1 + B2', 'expected ")"', 8],
    ['B1 + * B2', 'unexpected "*"', 5],
    ['B1 B2', 'unexpected "B2"', 3],
    ['B1 $ B2', 'unexpected character "$"', 3],
    ['B1 + 2 )', 'unexpected ")"', 7],
    ['., B1', 'malformed number', 0],
    ['B1,', 'the expression ends too early', 3],
    ['B1 ^ 2', 'unexpected character "^"', 3],
  ])('%j fails: %s at offset %i', (src, msg, position) => {
    const e = errorOf(src);
    expect(e.position).toBe(position);
    // The message counts from 1 for people.
    expect(e.message).toBe(`${msg} at position ${position + 1}`);
    expect(e.name).toBe('ExpressionError');
  });
});

describe('checkExpression', () => {
  it('accepts a valid index, composite and grayscale expression', () => {
    expect(
      checkExpression('(B08 - B04) / (B08 + B04)', 'index', ['B02', 'B03', 'B04', 'B08']),
    ).toEqual({
      problems: [],
      bands: ['B08', 'B04'],
    });
    expect(checkExpression('B04, B03, B02', 'composite').problems).toEqual([]);
    expect(checkExpression('B08', 'grayscale').problems).toEqual([]);
  });

  it('a composite needs exactly 3 components', () => {
    for (const src of ['B04', 'B04, B03', 'B04, B03, B02, B08']) {
      const n = src.split(',').length;
      expect(checkExpression(src, 'composite').problems).toEqual([
        {
          message: `a composite expression has 3 comma-separated components (red, green, blue), found ${n}`,
        },
      ]);
    }
  });

  it('index and grayscale take one component (with the right article)', () => {
    expect(checkExpression('B1, B2', 'index').problems).toEqual([
      { message: 'an index expression has a single component, found 2 separated by commas' },
    ]);
    expect(checkExpression('B1, B2, B3', 'grayscale').problems).toEqual([
      { message: 'a grayscale expression has a single component, found 3 separated by commas' },
    ]);
  });

  it('reports unknown bands, listing those available', () => {
    expect(checkExpression('(B8A - B04) / (B8A + B04)', 'index', ['B04', 'B08']).problems).toEqual([
      { message: 'unknown band B8A; this satellite has B04, B08' },
    ]);
    expect(checkExpression('X / Y', 'index', ['B04']).problems).toEqual([
      { message: 'unknown bands X, Y; this satellite has B04' },
    ]);
    expect(checkExpression('B04 / B08', 'index').problems).toEqual([]);
  });

  it('needs at least one band', () => {
    expect(checkExpression('1 + 2', 'index').problems).toEqual([
      { message: 'the expression uses no band' },
    ]);
  });

  it('turns a syntax error into a problem with its position', () => {
    expect(checkExpression('B1 +', 'index')).toEqual({
      problems: [{ message: 'the expression ends too early at position 5', position: 4 }],
      bands: [],
    });
  });
});
