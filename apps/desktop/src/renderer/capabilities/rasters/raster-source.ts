/**
 * An offline raster read in the raster worker: its bytes by HTTP range from the raster URL
 * (shared/raster-paths.ts: the backend serves the stored file), its tiles inflated with the
 * platform's DecompressionStream (native zlib, stopped as soon as a tile would pass its
 * announced size: a deflate bomb costs one tile's bytes and no more time than reading it),
 * decoded with @eo/geotiff, split into one array per band and kept in a cache bounded in bytes.
 */
import {
  GeoTiffError,
  openGeoTiff,
  SAMPLE_BYTES,
  type Compression,
  type ReadLimits,
  type GeoTiff,
  type RangeSource,
  type Samples,
} from '@eo/geotiff';

/** Limits of what the worker accepts from a raster file (the stored format's are far below). */
export const WORKER_LIMITS: Partial<ReadLimits> = {
  /** Stored or decoded bytes of one tile: 512 x 512 x 16 bands x 2 bytes. */
  maxTileBytes: 8 * 1024 * 1024,
  maxBands: 64,
  /** Header, IFDs and their values. */
  maxHeaderBytes: 8 * 1024 * 1024,
  /** 64 K px on a side: a 640 km window at 10 m. */
  maxImageSide: 1 << 16,
};

/** A tile's samples, one array per band (row-major, the level's tile size, padding included). */
export interface DecodedTile {
  readonly width: number;
  readonly height: number;
  readonly bands: readonly Samples[];
  readonly bytes: number;
}

/** Reads `url` by byte ranges with `fetch`; the file's size comes with the first answer. */
export async function httpRangeSource(
  url: string,
  fetchImpl: typeof fetch = fetch,
  firstChunk = 16 * 1024,
): Promise<RangeSource & { readonly size: number; reads: number }> {
  const get = async (offset: number, length: number) => {
    const res = await fetchImpl(url, {
      headers: { Range: `bytes=${offset}-${offset + length - 1}` },
    });
    if (res.status === 416) return { bytes: new Uint8Array(0), total: offset };
    if (res.status !== 206)
      throw new GeoTiffError(
        'truncated',
        `the raster's bytes could not be read (HTTP ${res.status})`,
      );
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
    if (!m || Number(m[1]) !== offset)
      throw new GeoTiffError('corrupt', 'the raster route answered another range than asked');
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > length)
      throw new GeoTiffError('corrupt', 'the raster route answered more bytes than asked');
    return { bytes, total: Number(m[3]) };
  };
  const first = await get(0, firstChunk);
  const source = {
    size: first.total,
    reads: 1,
    async read(offset: number, length: number): Promise<Uint8Array> {
      if (offset + length <= first.bytes.length)
        return first.bytes.subarray(offset, offset + length);
      const n = Math.max(0, Math.min(length, first.total - offset));
      if (n === 0) return new Uint8Array(0);
      source.reads++;
      return (await get(offset, n)).bytes;
    },
  };
  return source;
}

/**
 * Inflates a zlib stream (TIFF DEFLATE) with the platform's DecompressionStream, refusing past
 * `maxBytes` of output: the stream is cancelled at once, so neither memory nor time go past it.
 */
export async function inflateBounded(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('deflate'));
  const reader = stream.getReader();
  const out = new Uint8Array(maxBytes);
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (n + value.length > maxBytes) {
      await reader.cancel();
      throw new GeoTiffError('decode', `a tile inflates to more than its ${maxBytes} bytes`);
    }
    out.set(value, n);
    n += value.length;
  }
  return out.subarray(0, n);
}

/**
 * The codec's `Compression` for tiles inflated beforehand (asynchronously, `inflateBounded`): the
 * reader decodes synchronously, so the worker inflates first and hands the result over here.
 */
function preInflated(): Compression & { put(stored: Uint8Array, inflated: Uint8Array): void } {
  const ready = new WeakMap<Uint8Array, Uint8Array>();
  return {
    put: (stored, inflated) => ready.set(stored, inflated),
    inflate(bytes, maxBytes) {
      const inflated = ready.get(bytes);
      if (!inflated) throw new GeoTiffError('decode', 'a tile was decoded before it was inflated');
      ready.delete(bytes);
      if (inflated.length > maxBytes)
        throw new GeoTiffError('decode', 'a tile inflates past its size');
      return inflated;
    },
    deflate() {
      throw new GeoTiffError('unsupported', 'the raster worker does not write');
    },
  };
}

/** Bytes of decoded tiles kept per raster worker (a 4-band 512-px tile is 2 MB). */
export const TILE_CACHE_BYTES = 256 * 1024 * 1024;

/** A small byte-bounded LRU shared by every raster the worker has open. */
export class TileCache<T extends { readonly bytes: number }> {
  private readonly entries = new Map<string, T>();
  private total = 0;
  constructor(private readonly maxBytes: number) {}
  get(key: string): T | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }
  set(key: string, value: T): void {
    const old = this.entries.get(key);
    if (old) this.total -= old.bytes;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.total += value.bytes;
    while (this.total > this.maxBytes && this.entries.size > 1) {
      const [k, v] = this.entries.entries().next().value!;
      this.entries.delete(k);
      this.total -= v.bytes;
    }
  }
  /** Whether `key` is kept (its recency unchanged). */
  has(key: string): boolean {
    return this.entries.has(key);
  }
  /** Drops every entry whose key starts with `prefix` (a closed raster). */
  drop(prefix: string): void {
    for (const [k, v] of this.entries)
      if (k.startsWith(prefix)) {
        this.entries.delete(k);
        this.total -= v.bytes;
      }
  }
  get size(): number {
    return this.total;
  }
}

/** An open raster: its header, and its tiles decoded on demand (each read once at a time). */
export class OpenRaster {
  private readonly pending = new Map<string, Promise<DecodedTile | null>>();
  private constructor(
    readonly id: string,
    readonly tiff: GeoTiff,
    private readonly codec: ReturnType<typeof preInflated>,
    private readonly cache: TileCache<DecodedTile>,
  ) {}

  static async open(
    id: string,
    source: RangeSource,
    cache: TileCache<DecodedTile>,
  ): Promise<OpenRaster> {
    const codec = preInflated();
    const tiff = await openGeoTiff(source, { compression: codec, limits: WORKER_LIMITS });
    return new OpenRaster(id, tiff, codec, cache);
  }

  /** The decoded tile, or null when the file stores none there (sparse: nodata). */
  tile(level: number, tx: number, ty: number): Promise<DecodedTile | null> {
    const key = `${this.id}/${level}/${tx}/${ty}`;
    const hit = this.cache.get(key);
    if (hit) return Promise.resolve(hit);
    let p = this.pending.get(key);
    if (!p) {
      p = this.load(level, tx, ty).then(
        (t) => {
          this.pending.delete(key);
          if (t) this.cache.set(key, t);
          return t;
        },
        (e: unknown) => {
          this.pending.delete(key);
          throw e;
        },
      );
      this.pending.set(key, p);
    }
    return p;
  }

  /** A cached tile without waiting (null when not decoded yet or sparse). */
  cachedTile(level: number, tx: number, ty: number): DecodedTile | undefined {
    return this.cache.get(`${this.id}/${level}/${tx}/${ty}`);
  }

  /** Whether a tile is decoded and kept, without touching its recency. */
  isCached(level: number, tx: number, ty: number): boolean {
    return this.cache.has(`${this.id}/${level}/${tx}/${ty}`);
  }

  private async load(level: number, tx: number, ty: number): Promise<DecodedTile | null> {
    const stored = await this.tiff.readTileBytes(level, tx, ty);
    if (stored === null) return null;
    const l = this.tiff.level(level);
    const nb = this.tiff.bandCount;
    if (this.tiff.format.compression !== 1) {
      // Strips at the bottom may hold fewer rows; a tile always holds the full tile.
      const size = l.tileWidth * l.tileHeight * nb * SAMPLE_BYTES[this.tiff.sampleType];
      this.codec.put(stored, await inflateBounded(stored, size));
    }
    const samples = this.tiff.decodeTileBytes(level, tx, ty, stored);
    return splitBands(samples, nb, l.tileWidth, l.tileHeight);
  }

  close(): void {
    this.cache.drop(`${this.id}/`);
  }
}

/** Pixel-interleaved samples as one array per band. */
export function splitBands(
  samples: Samples,
  bands: number,
  width: number,
  height: number,
): DecodedTile {
  const pixels = width * height;
  const Ctor = samples.constructor as new (n: number) => Samples;
  const out: Samples[] = [];
  for (let b = 0; b < bands; b++) {
    const plane = new Ctor(pixels);
    for (let i = 0, j = b; i < pixels; i++, j += bands) plane[i] = samples[j]!;
    out.push(plane);
  }
  return { width, height, bands: out, bytes: samples.byteLength };
}
