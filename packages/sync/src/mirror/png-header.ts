/**
 * A cheap "is this a PNG a viewer can decode" check for mirrored quicklooks: the 8-byte
 * signature, then an IHDR chunk of 13 bytes with a matching CRC-32, non-zero dimensions and a
 * valid bit depth / colour type pair. Catches truncation to a few bytes, an HTML or JSON error
 * page stored by mistake and a flipped header byte; the SHA-256 in the index catches the rest.
 */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

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
  if (crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return null;
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const [depth, colour] = [b[24]!, b[25]!];
  if (width === 0 || height === 0 || !DEPTHS[colour]?.includes(depth)) return null;
  return { width, height };
}

/** CRC-32 (ISO 3309, the PNG chunk check); zlib.crc32 is missing from older Node/Electron. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
