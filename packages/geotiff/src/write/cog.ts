/**
 * Writing a COG to a positional-write sink (a file) without holding the image: the header's
 * space is reserved, tiles are asked of a tile source one at a time in file order (smallest
 * overview first), encoded and written after it, and the header goes in last, once every
 * tile's offset and size is known.
 */
import type { Compression } from '../codec';
import { fail } from '../errors';
import type { GeoTransform } from '../geo';
import { scaledTransform, windowTransform } from '../geo';
import type { Samples } from '../tiff/samples';
import { encodeTile } from './encode';
import {
  BLOCK_LEADER,
  BLOCK_TRAILER,
  cogHeader,
  planCog,
  tileOrder,
  type CogLayout,
} from './layout';
import type { CogSpec } from './spec';

/** Where the bytes go: writes at absolute offsets (a file opened for writing). */
export interface PositionalSink {
  write(offset: number, bytes: Uint8Array): Promise<void> | void;
}

export interface TileRequest {
  /** 0: full resolution; 1..: overviews. */
  readonly level: number;
  readonly x: number;
  readonly y: number;
  /** The level's size (pixels outside it, at the right and bottom edges, are padding). */
  readonly levelWidth: number;
  readonly levelHeight: number;
  readonly tileSize: number;
  /** Map coordinates of this tile's pixels (its top-left corner is its origin). */
  readonly geoTransform: GeoTransform;
}

/**
 * A tile's content: samples of the full tile (`tileSize`² pixels x bands, pixel-interleaved,
 * padding included), bytes already encoded the way the layout says (copied as they are), or
 * null for a sparse tile (no bytes: readers see nodata).
 */
export type TileData = Samples | { readonly encoded: Uint8Array } | null;
export type TileSource = (t: TileRequest) => Promise<TileData> | TileData;

export interface WrittenCog {
  readonly layout: CogLayout;
  /** Total bytes written. */
  readonly size: number;
  readonly tileOffsets: Float64Array[];
  readonly tileByteCounts: Float64Array[];
}

/** A tile's slot: size leader, bytes, last four bytes again (GDAL's block leader and trailer). */
export function tileSlot(encoded: Uint8Array): Uint8Array {
  const n = encoded.length;
  const slot = new Uint8Array(BLOCK_LEADER + n + BLOCK_TRAILER);
  new DataView(slot.buffer).setUint32(0, n, true);
  slot.set(encoded, BLOCK_LEADER);
  slot.set(encoded.subarray(Math.max(0, n - 4)), BLOCK_LEADER + n);
  return slot;
}

/** Writes a COG of `spec` whose pixels come from `source`. */
export async function writeCog(
  spec: CogSpec,
  source: TileSource,
  sink: PositionalSink,
  codec: Compression,
): Promise<WrittenCog> {
  const layout = planCog(spec);
  const offsets = layout.levels.map((l) => new Float64Array(l.tilesAcross * l.tilesDown));
  const counts = layout.levels.map((l) => new Float64Array(l.tilesAcross * l.tilesDown));
  const base = layout.levels[0]!;
  let at = layout.headerSize;
  for (const t of tileOrder(layout)) {
    const l = layout.levels[t.level]!;
    const gt = scaledTransform(spec.geoTransform, base.width, base.height, l.width, l.height);
    const data = await source({
      level: t.level,
      x: t.x,
      y: t.y,
      levelWidth: l.width,
      levelHeight: l.height,
      tileSize: layout.tileSize,
      geoTransform: windowTransform(gt, t.x * layout.tileSize, t.y * layout.tileSize),
    });
    if (data === null) continue;
    const encoded = 'encoded' in data ? data.encoded : encodeTile(layout, data, codec);
    if (encoded.length === 0)
      fail(
        'argument',
        `tile (${t.x}, ${t.y}) of level ${t.level} is empty: return null for a sparse tile`,
      );
    await sink.write(at, tileSlot(encoded));
    offsets[t.level]![t.index] = at + BLOCK_LEADER;
    counts[t.level]![t.index] = encoded.length;
    at += BLOCK_LEADER + encoded.length + BLOCK_TRAILER;
  }
  await sink.write(0, cogHeader(layout, offsets, counts));
  return { layout, size: at, tileOffsets: offsets, tileByteCounts: counts };
}
