/**
 * A cheap "is this a PNG a viewer can decode" check for mirrored quicklooks: the 8-byte
 * signature, then an IHDR chunk of 13 bytes with a matching CRC-32, non-zero dimensions and a
 * valid bit depth / colour type pair. Catches truncation to a few bytes, an HTML or JSON error
 * page stored by mistake and a flipped header byte; the SHA-256 in the index catches the rest.
 */
import { PNG_SIGNATURE, pngCrc32 } from '@eo/domain';

const SIGNATURE = Buffer.from(PNG_SIGNATURE);

/** Bit depths allowed per colour type (PNG spec, table 11.1). */
const DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

export interface PngHeader {
  readonly width: number;
  readonly height: number;
}

/** The picture's size, or null when `bytes` does not start like a decodable PNG. */
export function readPngHeader(bytes: Uint8Array): PngHeader | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 33 || !b.subarray(0, 8).equals(SIGNATURE)) return null;
  if (b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  if (pngCrc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return null;
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const [depth, colour] = [b[24]!, b[25]!];
  if (width === 0 || height === 0 || !DEPTHS[colour]?.includes(depth)) return null;
  return { width, height };
}
