/**
 * The window of a site out of a scene's Cloud-Optimized GeoTIFF, read by HTTP ranges: the
 * header (the first read, plus one more when the IFDs pass it), the level the resolution asks
 * for, the tiles of that level that meet the area (`planWindow` of `@eo/geotiff`), fetched as
 * merged ranges into the part file (range-fetch.ts), then the site's file written in the stored
 * raster format (`writeWindowCog`: the fetched tiles copied byte for byte, overviews from them).
 *
 * Each tile is checked before it is kept: its byte count is the header's, and where the file
 * says its tiles carry GDAL's block leader and trailer (`BLOCK_LEADER=SIZE_AS_UINT4`,
 * `BLOCK_TRAILER=LAST_4_BYTES_REPEATED`, as our COGs do) the piece fetched is the tile with them
 * and both must match: bytes of another file, or shifted ones, are never kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  GeoTiffError,
  geometryToMap,
  levelForResolution,
  openGeoTiff,
  planWindow,
  rasterBounds,
  withoutQuery,
  writeWindowCog,
  type GeoTiff,
  type RangeSource,
  type WindowPlan,
} from '@eo/geotiff';
import { fileSink, nodeCompression } from '@eo/geotiff/node';
import type { MultiPolygon, Polygon } from '@eo/domain';
import type { PartFile } from './part-file';
import { fetchPieces, type Piece } from './range-fetch';
import type { RangeTiming, RemoteFile } from './remote-file';
import type { Resolution } from './take-offline';

/** A COG we read windows of, or why the file is taken whole instead. */
export type CogOpening = { readonly tiff: GeoTiff } | { readonly notCog: string };

const isTiff = (b: Uint8Array) =>
  b.length >= 4 &&
  ((b[0] === 0x49 && b[1] === 0x49 && (b[2] === 42 || b[2] === 43) && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && (b[3] === 42 || b[3] === 43)));

/** The remote file as a range source for the reader: the head already read is not asked again. */
function rangeSource(file: RemoteFile, head: Uint8Array): RangeSource {
  return {
    size: file.info.size,
    read: (offset, length) => {
      const end = Math.min(offset + length, file.info.size);
      if (end <= head.length) return Promise.resolve(head.subarray(offset, end));
      return file.read(offset, Math.max(0, end - offset));
    },
  };
}

/** Opens the file as a tiled, georeferenced GeoTIFF; anything else is said in words. */
export async function openCog(file: RemoteFile, head: Uint8Array): Promise<CogOpening> {
  if (!isTiff(head)) {
    const zip = head[0] === 0x50 && head[1] === 0x4b;
    return {
      notCog: zip
        ? 'a zip archive'
        : `not a Cloud-Optimized GeoTIFF (${file.info.contentType ?? 'no type given'})`,
    };
  }
  let tiff: GeoTiff;
  try {
    tiff = await openGeoTiff(rangeSource(file, head), {
      compression: nodeCompression,
      headerChunk: head.length,
    });
  } catch (e) {
    if (e instanceof GeoTiffError)
      return { notCog: `a TIFF this reader does not take (${e.message})` };
    throw e;
  }
  const l0 = tiff.levels[0]!;
  if (!l0.tiled || l0.tileWidth !== l0.tileHeight)
    return { notCog: 'a GeoTIFF without square tiles (not a Cloud-Optimized GeoTIFF)' };
  if (tiff.epsg === null || tiff.geoTransform === null)
    return { notCog: 'a TIFF without a CRS or georeferencing we read' };
  return { tiff };
}

/** Does the file frame each tile with GDAL's 4-byte leader and trailer? */
const framed = (tiff: GeoTiff) =>
  tiff.structural.BLOCK_LEADER === 'SIZE_AS_UINT4' &&
  tiff.structural.BLOCK_TRAILER === 'LAST_4_BYTES_REPEATED';

export interface WindowPlanned {
  readonly plan: WindowPlan;
  readonly pieces: readonly Piece[];
  /** Piece name of each planned tile, by `x,y`. */
  readonly pieceOf: ReadonlyMap<string, string>;
  /** Metres per pixel at the level. */
  readonly pixelSize: number;
  readonly framed: boolean;
}

/** The level and tiles of the area (lon/lat) at the resolution asked for. */
export function planSite(
  tiff: GeoTiff,
  area: Polygon | MultiPolygon,
  resolution: Resolution,
): WindowPlanned {
  const level = resolution === 'native' ? 0 : levelForResolution(tiff, resolution.metres);
  const plan = planWindow(tiff, { level, area: { geometry: geometryToMap(area, tiff.epsg!) } });
  const withFrame = framed(tiff);
  const pieceOf = new Map<string, string>();
  const pieces: Piece[] = [];
  for (const t of plan.tiles) {
    if (t.byteCount === 0) continue; // sparse in the source: nodata, nothing to fetch
    const name = `${level}/${t.x},${t.y}`;
    pieceOf.set(`${t.x},${t.y}`, name);
    pieces.push(
      withFrame
        ? { name, offset: t.offset - 4, length: t.byteCount + 8 }
        : { name, offset: t.offset, length: t.byteCount },
    );
  }
  const gt = plan.geoTransform;
  return { plan, pieces, pieceOf, pixelSize: Math.hypot(gt[1], gt[4]), framed: withFrame };
}

/** A fetched piece's check: its length, and its leader and trailer where the file has them. */
export function checkPiece(framedPieces: boolean) {
  return (piece: Piece, bytes: Uint8Array) => {
    if (bytes.length !== piece.length)
      throw new Error(`tile ${piece.name}: ${bytes.length} bytes, not ${piece.length}`);
    if (!framedPieces) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = piece.length - 8;
    const leader = view.getUint32(0, true);
    const tail = bytes.subarray(bytes.length - 8, bytes.length - 4);
    const trailer = bytes.subarray(bytes.length - 4);
    if (leader !== count || !tail.every((b, i) => b === trailer[i]))
      throw new Error(`tile ${piece.name}: its leader or trailer does not match the header`);
  };
}

export interface WindowFetchOptions {
  readonly signal?: AbortSignal | undefined;
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  readonly seed?: RangeTiming | undefined;
  readonly onPiece?: ((done: number, total: number) => void) | undefined;
}

/** Fetches the pieces the part file lacks (range-fetch.ts), each checked. */
export function fetchWindow(
  file: RemoteFile,
  part: PartFile,
  planned: WindowPlanned,
  options: WindowFetchOptions,
) {
  return fetchPieces(file, part, planned.pieces, {
    ...options,
    checkPiece: checkPiece(planned.framed),
  });
}

export interface WrittenWindow {
  readonly file: string;
  readonly bytes: number;
  readonly bounds: [number, number, number, number];
  readonly width: number;
  readonly height: number;
}

/** Writes the site's GeoTIFF (stored raster format) at `target` from the part file's tiles. */
export async function writeWindow(
  tiff: GeoTiff,
  planned: WindowPlanned,
  part: PartFile,
  sourceUrl: URL,
  target: string,
): Promise<WrittenWindow> {
  const temp = `${target}.writing`;
  const handle = await fs.promises.open(temp, 'w', 0o600);
  try {
    await writeWindowCog({
      tiff,
      plan: planned.plan,
      tileBytes: (x, y) => {
        const name = planned.pieceOf.get(`${x},${y}`);
        if (!name) return null;
        const bytes = part.read(name);
        return planned.framed ? bytes.subarray(4, bytes.length - 4) : bytes;
      },
      // The source's own scene items are kept; where it came from, without the signature.
      scene: { sourceUrl: withoutQuery(sourceUrl.href) },
      sink: fileSink(handle),
      compression: nodeCompression,
    });
    await handle.sync();
  } finally {
    await handle.close();
  }
  fs.renameSync(temp, target);
  const { width, height } = planned.plan.pixelWindow;
  return {
    file: path.basename(target),
    bytes: fs.statSync(target).size,
    bounds: rasterBounds(planned.plan.geoTransform, width, height),
    width,
    height,
  };
}
