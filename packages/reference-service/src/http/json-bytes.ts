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

/**
 * `open` + `values` (JSON texts, or their UTF-8 bytes) separated by commas + `close`.
 * `options.sizes`: the values' UTF-8 sizes when the caller has measured them already (a size
 * too large is caught below; one too small would cut its value short, so only sizes measured
 * from the values themselves); `options.into`: where the bytes go (a Buffer of at least the size
 * asked for, lent by the body pool), a fresh Buffer by default. The result is exactly the body.
 */
export function joinedJsonBytes(
  open: string,
  values: readonly (string | Uint8Array)[],
  close: string,
  options: { sizes?: readonly number[]; into?: (bytes: number) => Buffer } = {},
): Buffer {
  const sizes =
    options.sizes ?? values.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : v.length));
  let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, values.length - 1);
  for (const s of sizes) size += s;
  const out = options.into ? options.into(size).subarray(0, size) : Buffer.allocUnsafe(size);
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
  // A body cut short (a size that was not the value's) must not go out as if whole.
  if (at !== size) throw new Error(`joinedJsonBytes: wrote ${at} of ${size} bytes`);
  return out;
}

/**
 * A JSON body not joined yet: what a handler returns when the body is made per request, so the
 * endpoint joins it into a Buffer lent for that one response (body-pool.ts).
 */
export class JsonParts {
  constructor(
    readonly open: string,
    readonly values: readonly (string | Uint8Array)[],
    readonly close: string,
    readonly sizes?: readonly number[],
  ) {}

  /** The body's bytes (`joinedJsonBytes`), into `into`'s Buffer or a fresh one. */
  bytes(into?: (bytes: number) => Buffer): Buffer {
    return joinedJsonBytes(this.open, this.values, this.close, { sizes: this.sizes, into });
  }
}
