/** The binary `catalog.footprints` answer: round trip, and every malformed message refused. */
import { describe, expect, it } from 'vitest';
import {
  decodeFootprints,
  encodeFootprints,
  FootprintsFormatError,
  joinedIds,
  type FootprintSet,
} from '../contract';

const SET: FootprintSet = {
  ids: ['rec-1', 'Ærø-ø', '衛星-🛰', ''],
  offsets: Uint32Array.of(0, 3, 7, 10, 13),
  coords: Float32Array.from({ length: 26 }, (_, i) => (i % 2 ? 45 + i / 7 : -179.9 + i / 3)),
};
/** SET as the backend sends it. */
const SEND = { ...SET, ...joinedIds(SET.ids) };

/** A copy of the message whose u32 at `byte` is `value`. */
function patched(bytes: Uint8Array, byte: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(byte, value, true);
  return copy;
}

describe('footprints wire format', () => {
  it('round-trips ids (any Unicode) and Float32 coordinates exactly', () => {
    const bytes = encodeFootprints(SEND);
    // Header, two offset tables, 8 bytes a point, the ids' UTF-8.
    const idBytes = new TextEncoder().encode(SET.ids.join('')).length;
    expect(bytes.byteLength).toBe(24 + 2 * 4 * 5 + 8 * 13 + idBytes);
    const back = decodeFootprints(bytes);
    expect(back.ids).toEqual(SET.ids);
    expect([...back.offsets]).toEqual([...SET.offsets]);
    expect([...back.coords]).toEqual([...SET.coords]);
  });

  it('an empty answer', () => {
    const empty = { ...joinedIds([]), offsets: new Uint32Array(1), coords: new Float32Array(0) };
    expect(decodeFootprints(encodeFootprints(empty)).ids).toEqual([]);
  });

  it('refuses to encode id offsets that do not end at the ids', () => {
    const short = { ...SEND, idOffsets: Uint32Array.of(0, 5, 10, 14, 14) };
    expect(() => encodeFootprints(short)).toThrow(FootprintsFormatError);
    expect(() => encodeFootprints({ ...SEND, idOffsets: new Uint32Array(0) })).toThrow(
      FootprintsFormatError,
    );
  });

  it('reads a message that sits at an unaligned offset of a larger buffer', () => {
    const bytes = encodeFootprints(SEND);
    const holder = new Uint8Array(bytes.byteLength + 3);
    holder.set(bytes, 3);
    expect(decodeFootprints(holder.subarray(3)).ids).toEqual(SET.ids);
  });

  it('refuses what is not a whole, consistent message', () => {
    const good = encodeFootprints(SEND);
    const points = 13;
    const coordsAt = 24 + 8 * 5;
    const cases: Array<[string, Uint8Array]> = [
      ['too short', good.subarray(0, 20)],
      ['magic', patched(good, 0, 0x4e4f534a)],
      ['version', patched(good, 4, 2)],
      ['count larger than sent', patched(good, 8, 5)],
      ['points larger than sent', patched(good, 12, points + 1)],
      ['truncated', good.slice(0, good.byteLength - 1)],
      ['trailing bytes', Uint8Array.from([...good, 0, 0, 0, 0])],
      ['ring offsets not from 0', patched(good, 24, 1)],
      ['a ring of 2 points', patched(good, 28, 2)],
      ['ring offsets falling', patched(good, 32, 2)],
      ['id offsets past the ids', patched(good, 24 + 4 * 5 + 4, 99)],
      ['id units not the text', patched(good, 16, 3)],
    ];
    const nan = good.slice();
    new DataView(nan.buffer).setFloat32(coordsAt + 4 * 5, NaN, true);
    cases.push(['a coordinate not finite', nan]);
    const badUtf8 = good.slice();
    badUtf8[coordsAt + 8 * points] = 0xff;
    cases.push(['ids not UTF-8', badUtf8]);
    for (const [what, bytes] of cases) {
      expect(() => decodeFootprints(bytes), what).toThrow(FootprintsFormatError);
    }
    expect(() => decodeFootprints({ ids: [] } as unknown as Uint8Array)).toThrow(
      FootprintsFormatError,
    );
  });
});
