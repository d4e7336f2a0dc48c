/**
 * Serialising an IFD: its entries (sorted by tag), the next-IFD offset, and the values that do
 * not fit inline right after it (each on an even offset). The size depends only on the tags,
 * types and counts, never on the values, so a writer can reserve the space before it knows
 * the tile offsets.
 */
import { FIELD_SIZE, FieldType } from '../tiff/tags';

export interface TagValue {
  readonly tag: number;
  readonly type: number;
  /** Numbers (integers, doubles) or the bytes of an ASCII value (its NUL included). */
  readonly values: ArrayLike<number>;
}

const even = (n: number) => n + (n & 1);

export function ifdSize(tags: readonly TagValue[], bigTiff: boolean): number {
  const entry = bigTiff ? 20 : 12;
  const inline = bigTiff ? 8 : 4;
  let size = (bigTiff ? 8 : 2) + tags.length * entry + (bigTiff ? 8 : 4);
  for (const t of tags) {
    const bytes = FIELD_SIZE[t.type]! * t.values.length;
    if (bytes > inline) size = even(size) + bytes;
  }
  return even(size);
}

function put(v: DataView, at: number, type: number, value: number): void {
  switch (type) {
    case FieldType.BYTE:
    case FieldType.ASCII:
    case FieldType.UNDEFINED:
      v.setUint8(at, value);
      break;
    case FieldType.SHORT:
      v.setUint16(at, value, true);
      break;
    case FieldType.LONG:
      v.setUint32(at, value, true);
      break;
    case FieldType.DOUBLE:
      v.setFloat64(at, value, true);
      break;
    case FieldType.LONG8:
      v.setBigUint64(at, BigInt(value), true);
      break;
    default:
      throw new Error(`writing tag type ${type} is not implemented`);
  }
}

/**
 * The IFD's bytes (little-endian) when it starts at file offset `at`, pointing to `next`
 * (0: last). Its length is `ifdSize(tags, bigTiff)`.
 */
export function encodeIfd(
  tags: readonly TagValue[],
  bigTiff: boolean,
  at: number,
  next: number,
): Uint8Array {
  const sorted = [...tags].sort((a, b) => a.tag - b.tag);
  const out = new Uint8Array(ifdSize(sorted, bigTiff));
  const v = new DataView(out.buffer);
  const entry = bigTiff ? 20 : 12;
  const inline = bigTiff ? 8 : 4;
  let p = 0;
  if (bigTiff) {
    v.setBigUint64(0, BigInt(sorted.length), true);
    p = 8;
  } else {
    v.setUint16(0, sorted.length, true);
    p = 2;
  }
  let extra = p + sorted.length * entry + (bigTiff ? 8 : 4);
  for (const t of sorted) {
    const size = FIELD_SIZE[t.type]!;
    const n = t.values.length;
    v.setUint16(p, t.tag, true);
    v.setUint16(p + 2, t.type, true);
    if (bigTiff) v.setBigUint64(p + 4, BigInt(n), true);
    else v.setUint32(p + 4, n, true);
    const valueField = p + (bigTiff ? 12 : 8);
    let dst = valueField;
    if (size * n > inline) {
      extra = even(extra);
      if (bigTiff) v.setBigUint64(valueField, BigInt(at + extra), true);
      else v.setUint32(valueField, at + extra, true);
      dst = extra;
      extra += size * n;
    }
    for (let i = 0; i < n; i++) put(v, dst + i * size, t.type, t.values[i]!);
    p += entry;
  }
  if (bigTiff) v.setBigUint64(p, BigInt(next), true);
  else v.setUint32(p, next, true);
  return out;
}
