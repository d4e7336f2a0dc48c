/** UTF-8 in and out without TextEncoder/TextDecoder (not in the portable lib this package builds on). */

/** Decodes UTF-8; an invalid sequence becomes U+FFFD (text from a file is never trusted). */
export function decodeUtf8(b: Uint8Array): string {
  let out = '';
  const parts: string[] = [];
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    let cp = 0xfffd;
    let n = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c < 0xe0 && i + 1 < b.length && (b[i + 1]! & 0xc0) === 0x80) {
      cp = ((c & 0x1f) << 6) | (b[i + 1]! & 0x3f);
      n = 2;
    } else if (
      c >= 0xe0 &&
      c < 0xf0 &&
      i + 2 < b.length &&
      (b[i + 1]! & 0xc0) === 0x80 &&
      (b[i + 2]! & 0xc0) === 0x80
    ) {
      cp = ((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
      n = 3;
      if (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)) cp = 0xfffd;
    } else if (
      c >= 0xf0 &&
      c < 0xf5 &&
      i + 3 < b.length &&
      (b[i + 1]! & 0xc0) === 0x80 &&
      (b[i + 2]! & 0xc0) === 0x80 &&
      (b[i + 3]! & 0xc0) === 0x80
    ) {
      cp =
        ((c & 0x07) << 18) |
        ((b[i + 1]! & 0x3f) << 12) |
        ((b[i + 2]! & 0x3f) << 6) |
        (b[i + 3]! & 0x3f);
      n = 4;
      if (cp < 0x10000 || cp > 0x10ffff) cp = 0xfffd;
    }
    out += String.fromCodePoint(cp);
    i += n;
    if (out.length > 8192) {
      parts.push(out);
      out = '';
    }
  }
  parts.push(out);
  return parts.join('');
}

/** Encodes a string as UTF-8. */
export function encodeUtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000)
      out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else
      out.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 0x3f),
        0x80 | ((cp >> 6) & 0x3f),
        0x80 | (cp & 0x3f),
      );
  }
  return Uint8Array.from(out);
}

/** Latin-1 (ASCII tags other than GDAL's). */
export function decodeLatin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}
