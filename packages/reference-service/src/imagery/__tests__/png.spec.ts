import { describe, expect, it } from 'vitest';
import { pngCrc32 } from '@eo/domain';
import { encodePng } from '../png';
import { decodePng } from './png-decode';

describe('PNG encoder', () => {
  it('computes the CRC-32 PNG uses (check value of "123456789")', () => {
    expect(pngCrc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips RGB and RGBA pixels through a decoder that checks every CRC', () => {
    for (const channels of [3, 4] as const) {
      const width = 37;
      const height = 11;
      const pixels = new Uint8Array(width * height * channels);
      for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 73 + (i >> 5)) & 0xff;
      const png = encodePng({ width, height, channels, pixels });
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      const back = decodePng(png);
      expect([back.width, back.height, back.channels]).toEqual([width, height, channels]);
      expect(Buffer.from(back.pixels).equals(Buffer.from(pixels))).toBe(true);
    }
  });

  it('refuses a pixel buffer of the wrong size or an empty image', () => {
    const pixels = new Uint8Array(10);
    expect(() => encodePng({ width: 2, height: 2, channels: 3, pixels })).toThrow(RangeError);
    expect(() => encodePng({ width: 0, height: 2, channels: 3, pixels })).toThrow(RangeError);
  });
});
