/**
 * Hostile files: every one is refused with a `GeoTiffError` of the right code, within bounded
 * memory, never with a crash of another kind: truncations, IFD cycles, huge counts and sizes,
 * offsets past the end, a deflate bomb, and random byte corruption.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldType, Tag } from '../tiff/tags';
import { encodeIfd, ifdSize, type TagValue } from '../write/ifd';
import { bufferSource, GeoTiffError, openGeoTiff, writeCog, type GeoTiffErrorCode } from '../index';
import { nodeCompression } from '../node';
import { patternTiles } from './helpers';

const TILE = 32;
const tileBytes = zlib.deflateSync(Buffer.alloc(TILE * TILE * 2, 7));

/** The tags of a one-tile 32 x 32 uint16 DEFLATE image whose tile is at `tileAt`. */
function imageTags(
  tileAt: number,
  over: Partial<Record<number, Partial<TagValue>>> = {},
): TagValue[] {
  const base: TagValue[] = [
    { tag: Tag.ImageWidth, type: FieldType.SHORT, values: [TILE] },
    { tag: Tag.ImageLength, type: FieldType.SHORT, values: [TILE] },
    { tag: Tag.BitsPerSample, type: FieldType.SHORT, values: [16] },
    { tag: Tag.Compression, type: FieldType.SHORT, values: [8] },
    { tag: Tag.Photometric, type: FieldType.SHORT, values: [1] },
    { tag: Tag.SamplesPerPixel, type: FieldType.SHORT, values: [1] },
    { tag: Tag.TileWidth, type: FieldType.SHORT, values: [TILE] },
    { tag: Tag.TileLength, type: FieldType.SHORT, values: [TILE] },
    { tag: Tag.TileOffsets, type: FieldType.LONG, values: [tileAt] },
    { tag: Tag.TileByteCounts, type: FieldType.LONG, values: [tileBytes.length] },
  ];
  return base.map((t) => ({ ...t, ...over[t.tag] }));
}

/**
 * A classic little-endian TIFF: the IFDs one after the other from offset 8, then `data`.
 * `next(i, offsets)` overrides IFD i's next pointer (default: the following IFD, 0 for the last).
 */
function buildTiff(
  ifds: (dataAt: number) => TagValue[][],
  data: Uint8Array,
  next?: (i: number, offsets: number[]) => number,
): Uint8Array {
  const probe = ifds(0);
  const offsets: number[] = [];
  let at = 8;
  for (const tags of probe) {
    offsets.push(at);
    at += ifdSize(tags, false);
  }
  const dataAt = at;
  const out = new Uint8Array(dataAt + data.length);
  const v = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]);
  v.setUint32(4, 8, true);
  ifds(dataAt).forEach((tags, i) => {
    const n = next ? next(i, offsets) : (offsets[i + 1] ?? 0);
    out.set(encodeIfd(tags, false, offsets[i]!, n), offsets[i]!);
  });
  out.set(data, dataAt);
  return out;
}

async function openAndReadAll(bytes: Uint8Array) {
  const tiff = await openGeoTiff(bufferSource(bytes), { compression: nodeCompression });
  for (const l of tiff.levels)
    for (let y = 0; y < l.tilesDown; y++)
      for (let x = 0; x < l.tilesAcross; x++) await tiff.readTile(l.index, x, y);
  return tiff;
}

async function refusal(bytes: Uint8Array): Promise<{ code: GeoTiffErrorCode; message: string }> {
  try {
    await openAndReadAll(bytes);
  } catch (e) {
    if (e instanceof GeoTiffError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('the file was read without an error');
}

describe('hostile files', () => {
  it('a well-formed one-tile file reads (the base every case below breaks)', async () => {
    const ok = buildTiff((at) => [imageTags(at)], tileBytes);
    const tiff = await openAndReadAll(ok);
    expect(Array.from((await tiff.readTile(0, 0, 0)).subarray(0, 2))).toEqual([0x0707, 0x0707]);
  });

  it('refuses what is not a TIFF, and truncated headers and IFDs', async () => {
    expect((await refusal(new Uint8Array([1, 2, 3]))).code).toBe('truncated');
    expect((await refusal(new TextEncoder().encode('<html>not a tiff</html>'))).code).toBe(
      'not-tiff',
    );
    expect((await refusal(new Uint8Array([0x49, 0x49, 41, 0, 8, 0, 0, 0]))).code).toBe('not-tiff');
    const ok = buildTiff((at) => [imageTags(at)], tileBytes);
    for (const cut of [8, 9, 20, 100])
      expect((await refusal(ok.subarray(0, cut))).code, `cut at ${cut}`).toBe('truncated');
    // Cut inside the tile: the structure opens, the tile is refused.
    const r = await refusal(ok.subarray(0, ok.length - 5));
    expect(r).toMatchObject({ code: 'truncated' });
    expect(r.message).toMatch(/tile \(0, 0\) of level 0/);
  });

  it('detects IFD cycles (to itself and back to the first)', async () => {
    const self = buildTiff(
      (at) => [imageTags(at)],
      tileBytes,
      (i, offs) => offs[i]!,
    );
    expect((await refusal(self)).code).toBe('ifd-cycle');
    const reduced = (at: number) => [
      { tag: Tag.NewSubfileType, type: FieldType.LONG, values: [1] },
      ...imageTags(at),
    ];
    const loop = buildTiff(
      (at) => [imageTags(at), reduced(at), reduced(at)],
      tileBytes,
      (i, offs) => (i === 2 ? offs[0]! : offs[i + 1]!),
    );
    const r = await refusal(loop);
    expect(r.code).toBe('ifd-cycle');
    expect(r.message).toContain('loops back');
  });

  it('refuses huge counts and sizes before allocating anything', async () => {
    const cases: [string, Uint8Array, GeoTiffErrorCode][] = [
      [
        '4 billion pixels wide',
        buildTiff(
          (at) => [
            imageTags(at, { [Tag.ImageWidth]: { type: FieldType.LONG, values: [4_000_000_000] } }),
          ],
          tileBytes,
        ),
        'limit',
      ],
      [
        '65535 x 65535 tiles',
        buildTiff(
          (at) => [
            imageTags(at, {
              [Tag.TileWidth]: { values: [65535] },
              [Tag.TileLength]: { values: [65535] },
            }),
          ],
          tileBytes,
        ),
        'limit',
      ],
      [
        '60,000 bands',
        buildTiff(
          (at) => [imageTags(at, { [Tag.SamplesPerPixel]: { values: [60000] } })],
          tileBytes,
        ),
        'limit',
      ],
      [
        'a 2 GB tile',
        buildTiff(
          (at) => [imageTags(at, { [Tag.TileByteCounts]: { values: [2_000_000_000] } })],
          tileBytes,
        ),
        'limit',
      ],
    ];
    for (const [name, bytes, code] of cases) expect((await refusal(bytes)).code, name).toBe(code);
    // An IFD declaring 60,000 entries, and a tag declaring a billion values.
    const ok = buildTiff((at) => [imageTags(at)], tileBytes);
    const manyTags = ok.slice();
    new DataView(manyTags.buffer).setUint16(8, 60_000, true);
    expect((await refusal(manyTags)).code).toBe('limit');
    const manyValues = buildTiff((at) => [imageTags(at)], tileBytes);
    const e = 8 + 2 + 2 * 12; // BitsPerSample: the 3rd entry
    expect(new DataView(manyValues.buffer).getUint16(e, true)).toBe(Tag.BitsPerSample);
    new DataView(manyValues.buffer).setUint32(e + 4, 1_000_000_000, true);
    expect((await refusal(manyValues)).code).toBe('limit');
    // A chain of 100 IFDs.
    const reduced = (at: number) => [
      { tag: Tag.NewSubfileType, type: FieldType.LONG, values: [1] },
      ...imageTags(at),
    ];
    const chain = buildTiff(
      (at) => [imageTags(at), ...Array.from({ length: 99 }, () => reduced(at))],
      tileBytes,
    );
    expect((await refusal(chain)).code).toBe('limit');
  });

  it('refuses offsets past the end: an IFD, a tag value, a tile', async () => {
    const ifdFar = buildTiff(
      (at) => [imageTags(at)],
      tileBytes,
      () => 10_000_000,
    );
    expect((await refusal(ifdFar)).message).toMatch(/past the end of the file/);
    const valueFar = buildTiff(
      (at) => [
        imageTags(at, {
          [Tag.BitsPerSample]: { values: [16, 16, 16] },
          [Tag.SamplesPerPixel]: { values: [3] },
        }),
      ],
      tileBytes,
    );
    // BitsPerSample (3 SHORTs, 6 bytes) is stored out of line: point it far away.
    const e = 8 + 2 + 2 * 12;
    new DataView(valueFar.buffer).setUint32(e + 8, 50_000_000, true);
    expect((await refusal(valueFar)).code).toBe('truncated');
    const tileFar = buildTiff(() => [imageTags(9_999_999)], tileBytes);
    const r = await refusal(tileFar);
    expect(r.code).toBe('truncated');
    expect(r.message).toMatch(/passes the end of the file/);
  });

  it('stops a deflate bomb at the tile size (a 64 MB stream in a 2 KB tile)', async () => {
    const bomb = zlib.deflateSync(Buffer.alloc(64 << 20), { level: 9 });
    const bytes = buildTiff(
      (at) => [imageTags(at, { [Tag.TileByteCounts]: { values: [bomb.length] } })],
      bomb,
    );
    const r = await refusal(bytes);
    expect(r.code).toBe('decode');
    expect(r.message).toContain(`does not inflate to ${TILE * TILE * 2} bytes or fewer`);
    // Garbage instead of a zlib stream, and a stream too short for the tile.
    const junk = buildTiff((at) => [imageTags(at)], new Uint8Array(tileBytes.length).fill(0xab));
    expect((await refusal(junk)).code).toBe('decode');
    const short = zlib.deflateSync(Buffer.alloc(100));
    const shortFile = buildTiff(
      (at) => [imageTags(at, { [Tag.TileByteCounts]: { values: [short.length] } })],
      short,
    );
    expect((await refusal(shortFile)).message).toMatch(/inflates to 100 bytes, 2048 expected/);
  });

  it('refuses what it does not read with "unsupported": LZW, planar, 12-bit', async () => {
    const lzw = buildTiff(
      (at) => [imageTags(at, { [Tag.Compression]: { values: [5] } })],
      tileBytes,
    );
    expect(await refusal(lzw)).toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('compression 5'),
    });
    const planar = buildTiff(
      (at) => [
        [
          ...imageTags(at, {
            [Tag.SamplesPerPixel]: { values: [2] },
            [Tag.BitsPerSample]: { values: [16, 16] },
            [Tag.TileOffsets]: { values: [at, at] },
            [Tag.TileByteCounts]: { values: [tileBytes.length, tileBytes.length] },
          }),
          { tag: Tag.PlanarConfiguration, type: FieldType.SHORT, values: [2] },
        ],
      ],
      tileBytes,
    );
    expect((await refusal(planar)).code).toBe('unsupported');
    const twelve = buildTiff(
      (at) => [imageTags(at, { [Tag.BitsPerSample]: { values: [12] } })],
      tileBytes,
    );
    expect((await refusal(twelve)).code).toBe('unsupported');
  });

  it('answers random corruption of a real COG with a GeoTiffError or a result, never another error', async () => {
    const chunks: Uint8Array[] = [];
    const sink = {
      write: (o: number, b: Uint8Array) => void chunks.push(Object.assign(b.slice(), { o })),
    };
    const spec = {
      width: 80,
      height: 70,
      bands: 2,
      sampleType: 'uint16' as const,
      tileSize: 32,
      geoTransform: [0, 1, 0, 0, 0, -1] as const,
      epsg: 32633,
    };
    const w = await writeCog(spec, patternTiles(2, 'uint16'), sink, nodeCompression);
    const file = new Uint8Array(w.size);
    for (const c of chunks) file.set(c, (c as Uint8Array & { o: number }).o);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(file.length - 1), fc.nat(255)), { minLength: 1, maxLength: 8 }),
        fc.nat(file.length),
        async (flips, cut) => {
          const bad = file.slice(0, Math.max(cut, 8));
          for (const [i, v] of flips) if (i < bad.length) bad[i] = v;
          try {
            await openAndReadAll(bad);
          } catch (e) {
            if (!(e instanceof GeoTiffError)) throw e;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
