/**
 * A JSON body made of texts the service already holds (stored records), encoded to UTF-8 once,
 * straight into one Buffer of its exact size.
 *
 * The plain way, `Buffer.from(open + texts.join(',') + close)`, builds the joined text (one
 * large string, and a second when the concatenation is flattened for encoding) and then
 * encodes it: for a catalog page of 100 records (~220 KB) that measured 420 to 600 µs against
 * 60 to 130 µs for this, in one process with interleaved rounds; the join alone, without the
 * encoding, was ~175 µs.
 */
const COMMA = 0x2c;

/** `open` + `texts` separated by commas + `close`, as UTF-8 bytes. */
export function joinedJsonBytes(open: string, texts: readonly string[], close: string): Buffer {
  const sizes = texts.map((t) => Buffer.byteLength(t));
  let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, texts.length - 1);
  for (const s of sizes) size += s;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(open, 0);
  texts.forEach((text, i) => {
    if (i > 0) out[at++] = COMMA;
    at += out.write(text, at, sizes[i]!);
  });
  at += out.write(close, at);
  if (at !== size) throw new Error(`joinedJsonBytes: wrote ${at} of ${size} bytes`);
  return out;
}
