/** Shared by the codec's tests: temp files, a synthetic raster, writing and opening files. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import {
  allocSamples,
  openGeoTiff,
  writeCog,
  type CogSpec,
  type GeoTiff,
  type SampleType,
  type Samples,
  type TileRequest,
} from '../index';
import { fileSink, fileSource, nodeCompression } from '../node';

/** A temp folder removed after the file's tests. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-geotiff-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A deterministic value per pixel and band: smooth ramps plus hashed detail, in a type's range. */
export function pixelValue(x: number, y: number, band: number, type: SampleType): number {
  let h =
    Math.imul(x + 1, 0x27d4eb2d) ^ Math.imul(y + 7, 0x165667b1) ^ Math.imul(band + 3, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  const noise = ((h ^ (h >>> 13)) >>> 0) % 97;
  const smooth = (x * 3 + y * 5 + band * 400) % 3000;
  switch (type) {
    case 'uint8':
      return (smooth + noise) % 256;
    case 'int8':
      return ((smooth + noise) % 256) - 128;
    case 'int16':
      return smooth + noise - 1500;
    case 'float32':
    case 'float64':
      return (smooth + noise) / 7 - 100.25;
    default:
      return 1 + smooth + noise; // never 0, the nodata of the uint tests
  }
}

/** A tile source of `pixelValue` (padding outside the level left 0); overviews use level coordinates. */
export function patternTiles(bands: number, type: SampleType) {
  return (t: TileRequest): Samples => {
    const s = t.tileSize;
    const a = allocSamples(type, s * s * bands);
    for (let y = 0; y < s; y++) {
      const gy = t.y * s + y;
      if (gy >= t.levelHeight) break;
      for (let x = 0; x < s; x++) {
        const gx = t.x * s + x;
        if (gx >= t.levelWidth) break;
        for (let b = 0; b < bands; b++)
          a[(y * s + x) * bands + b] = pixelValue(gx, gy, b + t.level * 10, type);
      }
    }
    return a;
  };
}

/** Writes a COG of `spec` (tiles from `source`, default the pattern) to `file`. */
export async function writeCogFile(
  file: string,
  spec: CogSpec,
  source: (t: TileRequest) => Samples | null | { encoded: Uint8Array } = patternTiles(
    spec.bands,
    spec.sampleType,
  ),
) {
  const fh = await fs.promises.open(file, 'w+');
  try {
    return await writeCog(spec, source, fileSink(fh), nodeCompression);
  } finally {
    await fh.close();
  }
}

/** Opens a file with our reader (the file stays open until the test file ends). */
export async function openFile(file: string, headerChunk?: number): Promise<GeoTiff> {
  const fh = await fs.promises.open(file, 'r');
  afterAll(() => fh.close());
  return openGeoTiff(await fileSource(fh), {
    compression: nodeCompression,
    ...(headerChunk ? { headerChunk } : {}),
  });
}

/** A seeded generator of numbers in [0, 1) (tests pick "random" points without luck). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * How two rasters' bands differ: the count of unequal samples and the first one (a compact
 * answer: a deep-equality diff of millions of numbers would take minutes to print).
 */
export function pixelDiff(
  ours: { bands: ArrayLike<number>[] },
  theirs: { bands: ArrayLike<number>[] },
): string {
  if (ours.bands.length !== theirs.bands.length)
    return `${ours.bands.length} bands against ${theirs.bands.length}`;
  let bad = 0;
  let first = '';
  ours.bands.forEach((a, b) => {
    const t = theirs.bands[b]!;
    if (a.length !== t.length) {
      bad++;
      first ||= `band ${b}: ${a.length} samples against ${t.length}`;
      return;
    }
    for (let i = 0; i < a.length; i++)
      if (a[i] !== t[i] && !(Number.isNaN(a[i]) && Number.isNaN(t[i]))) {
        if (bad++ === 0) first = `band ${b} sample ${i}: ${a[i]} against ${t[i]}`;
      }
  });
  return bad === 0 ? 'same' : `${bad} samples differ, first ${first}`;
}
