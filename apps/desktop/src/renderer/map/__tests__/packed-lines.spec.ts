import { afterEach, describe, expect, it, vi } from 'vitest';
import { packLines, unpackLines } from '../packed-lines';
import { projectLines } from '../world-shapes';

// A ring across the antimeridian (unwrapped by projectLines) and a line.
const lines = projectLines([
  [
    [179, -16],
    [-179, -16],
    [-179, -18],
    [179, -16],
  ],
  [
    [10, 50],
    [11.25, 51.5],
  ],
]);

afterEach(() => {
  delete (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64;
});

describe('packed lines', () => {
  it('read back exactly what was packed', () => {
    const back = unpackLines(packLines(lines));
    expect(back.offsets).toEqual(lines.offsets);
    expect(back.points).toEqual(lines.points);
    expect(back.boxes).toEqual(lines.boxes);
    expect(unpackLines(packLines(projectLines([])))).toEqual(projectLines([]));
  });

  it("decode with the engine's own base64 decoder where it has one", () => {
    // Node 20 has none (the loop above ran); Chromium's, as the spec defines it.
    const native = vi.fn((text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
    Object.defineProperty(Uint8Array, 'fromBase64', { value: native, configurable: true });
    const back = unpackLines(packLines(lines));
    expect(native).toHaveBeenCalledTimes(3);
    expect(back.points).toEqual(lines.points);
    expect(back.offsets).toEqual(lines.offsets);
  });

  it('refuse arrays that do not fit together', () => {
    const packed = packLines(lines);
    // One line's offsets with two lines' points and boxes.
    const oneLine = packLines(
      projectLines([
        [
          [0, 0],
          [1, 1],
        ],
      ]),
    );
    expect(() => unpackLines({ ...packed, offsets: oneLine.offsets })).toThrow(/do not fit/);
    // A byte short of a whole number.
    expect(() => unpackLines({ ...packed, points: btoa('abc') })).toThrow(/not whole numbers/);
    // Offsets that end where the points do but go backwards on the way (6 points in all).
    const backwards = packLines({ ...lines, offsets: new Uint32Array([0, 7, 6]) });
    expect(() => unpackLines({ ...packed, offsets: backwards.offsets })).toThrow(/backwards/);
    expect(() => unpackLines({ ...packed, offsets: '' })).toThrow(/do not fit/);
  });
});
