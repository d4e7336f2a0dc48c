/**
 * A JSON body made of values the service already holds as JSON (stored records as text, stored
 * orders as bytes), encoded to UTF-8 once, straight into one Buffer of its exact size.
 *
 * The plain way for texts, `Buffer.from(open + texts.join(',') + close)`, builds the joined text
 * (one large string, and a second when the concatenation is flattened for encoding) and then
 * encodes it: for a catalog page of 100 records (~220 KB) that measured 420 to 600 µs against
 * 60 to 130 µs for this, in one process with interleaved rounds; the join alone, without the
 * encoding, was ~175 µs.
 */
const COMMA = 0x2c;

/** `open` + `values` (JSON texts, or their UTF-8 bytes) separated by commas + `close`. */
export function joinedJsonBytes(
  open: string,
  values: readonly (string | Uint8Array)[],
  close: string,
): Buffer {
  const sizes = values.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : v.length));
  let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, values.length - 1);
  for (const s of sizes) size += s;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(open, 0);
  values.forEach((value, i) => {
    if (i > 0) out[at++] = COMMA;
    if (typeof value === 'string') at += out.write(value, at, sizes[i]!);
    else {
      out.set(value, at);
      at += value.length;
    }
  });
  at += out.write(close, at);
  if (at !== size) throw new Error(`joinedJsonBytes: wrote ${at} of ${size} bytes`);
  return out;
}
