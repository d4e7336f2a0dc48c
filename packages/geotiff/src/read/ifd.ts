/**
 * The TIFF header and the IFD chain, classic (32-bit offsets) and BigTIFF (64-bit), either
 * byte order. Entries are read as (tag, type, count, where the value is); values are decoded
 * on demand by `IfdReader`, each checked against the limits first.
 */
import { fail } from '../errors';
import type { ReadLimits } from '../limits';
import { FIELD_SIZE, FieldType } from '../tiff/tags';
import type { HeaderBytes } from './source';

export interface TiffHeader {
  readonly littleEndian: boolean;
  readonly bigTiff: boolean;
  readonly firstIfd: number;
}

export interface IfdEntry {
  readonly tag: number;
  readonly type: number;
  readonly count: number;
  /** Where the value is: inline in the entry, or at an offset in the file. */
  readonly valueAt: number;
}

export interface Ifd {
  readonly offset: number;
  readonly entries: ReadonlyMap<number, IfdEntry>;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Reads a uint64 as a number; refuses values past 2^53 (no real file has them). */
function u64(v: DataView, at: number, le: boolean, what: string): number {
  const lo = v.getUint32(at + (le ? 0 : 4), le);
  const hi = v.getUint32(at + (le ? 4 : 0), le);
  const n = hi * 2 ** 32 + lo;
  if (n > MAX_SAFE) fail('limit', `${what} is ${hi}:${lo}, past 2^53`);
  return n;
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

export async function readHeader(bytes: HeaderBytes): Promise<TiffHeader> {
  const b = await bytes.get(0, 16);
  if (b.length < 8)
    fail('truncated', `the file has ${b.length} bytes: too short for a TIFF header`);
  const order = String.fromCharCode(b[0]!, b[1]!);
  if (order !== 'II' && order !== 'MM')
    fail('not-tiff', `no TIFF byte-order mark (got ${JSON.stringify(order)})`);
  const le = order === 'II';
  const v = view(b);
  const magic = v.getUint16(2, le);
  if (magic === 42) return { littleEndian: le, bigTiff: false, firstIfd: v.getUint32(4, le) };
  if (magic !== 43) fail('not-tiff', `TIFF magic number ${magic} (42 classic, 43 BigTIFF)`);
  if (b.length < 16) fail('truncated', 'the file ends inside its BigTIFF header');
  if (v.getUint16(4, le) !== 8 || v.getUint16(6, le) !== 0)
    fail('corrupt', 'BigTIFF header with an offset size other than 8');
  return { littleEndian: le, bigTiff: true, firstIfd: u64(v, 8, le, 'the first IFD offset') };
}

/** Every IFD of the chain, in file order; cycles, counts and sizes checked. */
export async function readIfdChain(
  bytes: HeaderBytes,
  header: TiffHeader,
  limits: ReadLimits,
  fileSize: number | undefined,
): Promise<Ifd[]> {
  const { littleEndian: le, bigTiff } = header;
  const countSize = bigTiff ? 8 : 2;
  const entrySize = bigTiff ? 20 : 12;
  const inlineSize = bigTiff ? 8 : 4;
  const seen = new Set<number>();
  const ifds: Ifd[] = [];
  let at = header.firstIfd;
  while (at !== 0) {
    if (seen.has(at)) fail('ifd-cycle', `the IFD chain loops back to offset ${at}`);
    seen.add(at);
    if (ifds.length >= limits.maxIfds) fail('limit', `more than ${limits.maxIfds} IFDs`);
    if (fileSize !== undefined && at >= fileSize)
      fail(
        'truncated',
        `IFD ${ifds.length} at offset ${at}, past the end of the file (${fileSize} bytes)`,
      );
    const head = await bytes.get(at, countSize);
    if (head.length < countSize)
      fail('truncated', `the file ends inside IFD ${ifds.length} (offset ${at})`);
    const n = bigTiff ? u64(view(head), 0, le, 'an IFD entry count') : view(head).getUint16(0, le);
    if (n === 0) fail('corrupt', `IFD ${ifds.length} (offset ${at}) has no entries`);
    if (n > limits.maxTagsPerIfd)
      fail('limit', `IFD ${ifds.length} declares ${n} tags (limit ${limits.maxTagsPerIfd})`);
    const bodyLength = n * entrySize + inlineSize;
    const body = await bytes.get(at + countSize, bodyLength);
    if (body.length < bodyLength)
      fail('truncated', `the file ends inside IFD ${ifds.length} (offset ${at})`);
    const v = view(body);
    const entries = new Map<number, IfdEntry>();
    for (let i = 0; i < n; i++) {
      const e = i * entrySize;
      const tag = v.getUint16(e, le);
      const type = v.getUint16(e + 2, le);
      const count = bigTiff ? u64(v, e + 4, le, `tag ${tag}'s count`) : v.getUint32(e + 4, le);
      const size = FIELD_SIZE[type];
      if (size === undefined) continue; // an unknown type: skippable, as TIFF 6.0 says
      const valueBytes = size * count;
      const valueAt =
        valueBytes <= inlineSize
          ? at + countSize + e + (bigTiff ? 12 : 8)
          : bigTiff
            ? u64(v, e + 12, le, `tag ${tag}'s value offset`)
            : v.getUint32(e + 8, le);
      if (!entries.has(tag)) entries.set(tag, { tag, type, count, valueAt });
    }
    ifds.push({ offset: at, entries });
    const next = n * entrySize;
    at = bigTiff ? u64(v, next, le, 'the next IFD offset') : v.getUint32(next, le);
  }
  if (ifds.length === 0) fail('corrupt', 'the file has no IFD');
  return ifds;
}

/** Decodes the values of entries, each against the limits. */
export class IfdReader {
  constructor(
    private readonly bytes: HeaderBytes,
    private readonly header: TiffHeader,
    private readonly limits: ReadLimits,
    private readonly fileSize: number | undefined,
  ) {}

  private async raw(e: IfdEntry, maxCount: number): Promise<Uint8Array> {
    if (e.count > maxCount) fail('limit', `tag ${e.tag} has ${e.count} values (limit ${maxCount})`);
    const length = FIELD_SIZE[e.type]! * e.count;
    if (this.fileSize !== undefined && e.valueAt + length > this.fileSize)
      fail(
        'truncated',
        `tag ${e.tag}'s ${length} bytes at offset ${e.valueAt} pass the end of the file`,
      );
    const b = await this.bytes.get(e.valueAt, length);
    if (b.length < length) fail('truncated', `the file ends inside tag ${e.tag}'s values`);
    return b;
  }

  /** Numeric values (integers or floats; rationals as quotients) as a Float64Array. */
  async numbers(e: IfdEntry, maxCount = this.limits.maxTagValues): Promise<Float64Array> {
    const b = await this.raw(e, maxCount);
    const v = view(b);
    const le = this.header.littleEndian;
    const out = new Float64Array(e.count);
    const size = FIELD_SIZE[e.type]!;
    for (let i = 0; i < e.count; i++) {
      const o = i * size;
      switch (e.type) {
        case FieldType.BYTE:
        case FieldType.UNDEFINED:
          out[i] = v.getUint8(o);
          break;
        case FieldType.SBYTE:
          out[i] = v.getInt8(o);
          break;
        case FieldType.SHORT:
          out[i] = v.getUint16(o, le);
          break;
        case FieldType.SSHORT:
          out[i] = v.getInt16(o, le);
          break;
        case FieldType.LONG:
        case FieldType.IFD:
          out[i] = v.getUint32(o, le);
          break;
        case FieldType.SLONG:
          out[i] = v.getInt32(o, le);
          break;
        case FieldType.RATIONAL:
          out[i] = v.getUint32(o, le) / v.getUint32(o + 4, le);
          break;
        case FieldType.SRATIONAL:
          out[i] = v.getInt32(o, le) / v.getInt32(o + 4, le);
          break;
        case FieldType.FLOAT:
          out[i] = v.getFloat32(o, le);
          break;
        case FieldType.DOUBLE:
          out[i] = v.getFloat64(o, le);
          break;
        case FieldType.LONG8:
        case FieldType.IFD8:
          out[i] = u64(v, o, le, `a value of tag ${e.tag}`);
          break;
        case FieldType.SLONG8: {
          const n = Number(v.getBigInt64(o, le));
          if (!Number.isSafeInteger(n)) fail('limit', `a value of tag ${e.tag} passes 2^53`);
          out[i] = n;
          break;
        }
        default:
          fail('corrupt', `tag ${e.tag} has type ${e.type}, not a number`);
      }
    }
    return out;
  }

  /** An ASCII value without its trailing NUL (bytes as Latin-1; GDAL_METADATA is UTF-8: see `utf8`). */
  async bytesOf(e: IfdEntry): Promise<Uint8Array> {
    if (e.type !== FieldType.ASCII && e.type !== FieldType.BYTE && e.type !== FieldType.UNDEFINED)
      fail('corrupt', `tag ${e.tag} has type ${e.type}, not text`);
    const b = await this.raw(e, this.limits.maxAsciiBytes);
    let end = b.length;
    while (end > 0 && b[end - 1] === 0) end--;
    return b.subarray(0, end);
  }
}
