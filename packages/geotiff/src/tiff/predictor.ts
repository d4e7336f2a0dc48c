/**
 * TIFF predictors, per row of a tile: 2 (horizontal differencing of integer samples, each
 * sample with the same sample of the pixel to its left) and 3 (floating point: the bytes of
 * each row split into planes, most significant first, then differenced). Pixel-interleaved
 * (PlanarConfiguration 1), so the stride is the number of bands.
 */
import type { Samples } from './samples';

/** Undoes predictor 2 in place on `rows` rows of `rowSamples` samples. */
export function undoHorizontal(a: Samples, rows: number, rowSamples: number, stride: number) {
  for (let r = 0; r < rows; r++) {
    const end = (r + 1) * rowSamples;
    for (let i = r * rowSamples + stride; i < end; i++) a[i] = a[i]! + a[i - stride]!;
  }
}

/** Applies predictor 2 in place (the inverse of `undoHorizontal`; typed arrays wrap). */
export function applyHorizontal(a: Samples, rows: number, rowSamples: number, stride: number) {
  for (let r = 0; r < rows; r++) {
    const start = r * rowSamples + stride;
    for (let i = (r + 1) * rowSamples - 1; i >= start; i--) a[i] = a[i]! - a[i - stride]!;
  }
}

/**
 * Undoes predictor 3: `bytes` holds `rows` rows of `rowBytes`; returns the samples' bytes in
 * little-endian order (the planes are big-endian whatever the file's byte order).
 */
export function undoFloatingPoint(
  bytes: Uint8Array,
  rows: number,
  rowBytes: number,
  stride: number,
  size: number,
): Uint8Array {
  const out = new Uint8Array(rows * rowBytes);
  const words = rowBytes / size;
  for (let r = 0; r < rows; r++) {
    const o = r * rowBytes;
    for (let i = o + stride; i < o + rowBytes; i++)
      bytes[i] = (bytes[i]! + bytes[i - stride]!) & 0xff;
    for (let w = 0; w < words; w++)
      for (let b = 0; b < size; b++) out[o + w * size + b] = bytes[o + (size - b - 1) * words + w]!;
  }
  return out;
}

/** Applies predictor 3 to little-endian sample bytes: a new array. */
export function applyFloatingPoint(
  bytes: Uint8Array,
  rows: number,
  rowBytes: number,
  stride: number,
  size: number,
): Uint8Array {
  const out = new Uint8Array(rows * rowBytes);
  const words = rowBytes / size;
  for (let r = 0; r < rows; r++) {
    const o = r * rowBytes;
    for (let w = 0; w < words; w++)
      for (let b = 0; b < size; b++) out[o + (size - b - 1) * words + w] = bytes[o + w * size + b]!;
    for (let i = o + rowBytes - 1; i >= o + stride; i--)
      out[i] = (out[i]! - out[i - stride]!) & 0xff;
  }
  return out;
}
