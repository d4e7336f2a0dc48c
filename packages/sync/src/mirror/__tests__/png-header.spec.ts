/** The PNG header check mirrored quicklooks pass before use. */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readPngHeader } from '../png-header';

/** A real 3x2 RGB PNG, built here: signature, IHDR, IDAT, IEND with their CRCs. */
function png(width = 3, height = 2, depth = 8, colour = 2): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colour;
  const raw = Buffer.alloc(height * (1 + width * 3));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe('readPngHeader', () => {
  it('reads the size of a PNG', () => {
    expect(readPngHeader(png())).toEqual({ width: 3, height: 2 });
  });

  it('refuses what a viewer could not decode', () => {
    const flipped = png();
    flipped.writeUInt8(flipped.readUInt8(17) ^ 0x01, 17); // width changed: the IHDR CRC no longer matches
    expect(readPngHeader(flipped)).toBeNull();
    expect(readPngHeader(png().subarray(0, 20))).toBeNull(); // truncated
    expect(readPngHeader(Buffer.from('{"error":{"code":"forbidden"}}'.padEnd(64)))).toBeNull();
    expect(readPngHeader(png(0, 2))).toBeNull(); // no pixels
    expect(readPngHeader(png(3, 2, 4, 2))).toBeNull(); // RGB has no 4-bit depth
  });
});
