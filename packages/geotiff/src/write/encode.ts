/** One tile of samples to its stored bytes: predictor, then DEFLATE (or none). */
import type { Compression } from '../codec';
import { fail } from '../errors';
import { applyFloatingPoint, applyHorizontal } from '../tiff/predictor';
import {
  HOST_LITTLE_ENDIAN,
  SAMPLE_BYTES,
  bytesOfSamples,
  swapBytes,
  type Samples,
} from '../tiff/samples';
import { COMPRESSION_NONE } from '../tiff/tags';
import type { CogLayout } from './layout';

/** Encodes a full tile (`tileSize` x `tileSize` pixels of every band, pixel-interleaved). Leaves `samples` as it was. */
export function encodeTile(layout: CogLayout, samples: Samples, codec: Compression): Uint8Array {
  const { spec, tileSize, predictor } = layout;
  const n = tileSize * tileSize * spec.bands;
  if (samples.length !== n)
    fail(
      'argument',
      `a tile of ${samples.length} samples; ${tileSize} x ${tileSize} x ${spec.bands} = ${n} expected`,
    );
  const size = SAMPLE_BYTES[spec.sampleType];
  const rowSamples = tileSize * spec.bands;
  let bytes: Uint8Array;
  if (predictor === 3) {
    const le = bytesOfSamples(samples).slice();
    if (!HOST_LITTLE_ENDIAN) swapBytes(le, size);
    bytes = applyFloatingPoint(le, tileSize, rowSamples * size, spec.bands, size);
  } else {
    const copy = samples.slice() as Samples;
    if (predictor === 2) applyHorizontal(copy, tileSize, rowSamples, spec.bands);
    bytes = bytesOfSamples(copy);
    if (!HOST_LITTLE_ENDIAN) swapBytes(bytes, size);
  }
  if (layout.compression === COMPRESSION_NONE) return bytes;
  return codec.deflate(bytes, layout.spec.deflateLevel ?? 6);
}
