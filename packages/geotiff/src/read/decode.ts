/**
 * One tile (or strip) from its stored bytes to samples: inflate (bounded to the decoded size
 * the tags announce), byte order, predictor.
 */
import type { Compression } from '../codec';
import { GeoTiffError, fail } from '../errors';
import { undoFloatingPoint, undoHorizontal } from '../tiff/predictor';
import {
  HOST_LITTLE_ENDIAN,
  SAMPLE_BYTES,
  isFloat,
  samplesOfBytes,
  swapBytes,
  type SampleType,
  type Samples,
} from '../tiff/samples';
import { COMPRESSION_DEFLATE, COMPRESSION_DEFLATE_OLD, COMPRESSION_NONE } from '../tiff/tags';

export interface TileFormat {
  readonly compression: number;
  readonly predictor: number;
  readonly sampleType: SampleType;
  readonly bands: number;
  readonly littleEndian: boolean;
}

export const SUPPORTED_COMPRESSIONS = [
  COMPRESSION_NONE,
  COMPRESSION_DEFLATE,
  COMPRESSION_DEFLATE_OLD,
];

/** Checks a format once when the file is opened, so tile decoding never meets an unsupported one. */
export function checkFormat(f: TileFormat): void {
  if (!SUPPORTED_COMPRESSIONS.includes(f.compression))
    fail(
      'unsupported',
      `compression ${f.compression} (this reader takes 1 none, 8 and 32946 DEFLATE)`,
    );
  if (f.predictor !== 1 && f.predictor !== 2 && f.predictor !== 3)
    fail('unsupported', `predictor ${f.predictor}`);
  if (f.predictor === 2 && isFloat(f.sampleType))
    fail('unsupported', 'predictor 2 on floating-point samples (use 3)');
  if (f.predictor === 3 && !isFloat(f.sampleType))
    fail('corrupt', 'predictor 3 on integer samples');
}

/**
 * Decodes `stored` into `width` x `rows` pixels of `bands` samples. `what` names the tile in
 * errors.
 */
export function decodeTile(
  stored: Uint8Array,
  f: TileFormat,
  width: number,
  rows: number,
  codec: Compression,
  what: string,
): Samples {
  const size = SAMPLE_BYTES[f.sampleType];
  const length = width * rows * f.bands;
  const expected = length * size;
  let bytes: Uint8Array;
  if (f.compression === COMPRESSION_NONE) {
    if (stored.length < expected)
      fail('decode', `${what} holds ${stored.length} bytes, ${expected} expected`);
    bytes = stored.slice(0, expected);
  } else {
    try {
      bytes = codec.inflate(stored, expected);
    } catch (e) {
      if (e instanceof GeoTiffError) throw e;
      fail(
        'decode',
        `${what} does not inflate to ${expected} bytes or fewer (${(e as Error).message})`,
      );
    }
    if (bytes.length !== expected)
      fail('decode', `${what} inflates to ${bytes.length} bytes, ${expected} expected`);
    if (bytes.byteOffset % size !== 0) bytes = bytes.slice();
  }
  const rowSamples = width * f.bands;
  if (f.predictor === 3) {
    const le = undoFloatingPoint(bytes, rows, rowSamples * size, f.bands, size);
    if (!HOST_LITTLE_ENDIAN) swapBytes(le, size);
    return samplesOfBytes(f.sampleType, le, length);
  }
  if (f.littleEndian !== HOST_LITTLE_ENDIAN) swapBytes(bytes, size);
  const samples = samplesOfBytes(f.sampleType, bytes, length);
  if (f.predictor === 2) undoHorizontal(samples, rows, rowSamples, f.bands);
  return samples;
}
