/**
 * Where the bytes come from: anything that answers "give me `length` bytes at `offset`" (a
 * file, a buffer, HTTP range requests). A source may answer short at the end of the file; the
 * reader then says the file is truncated.
 */
import { fail } from '../errors';

export interface RangeSource {
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Total bytes, when known (lets the reader refuse offsets past the end before reading). */
  readonly size?: number;
}

/** A source over bytes in memory. */
export function bufferSource(bytes: Uint8Array): RangeSource {
  return {
    size: bytes.length,
    read: (offset, length) =>
      Promise.resolve(
        bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length)),
      ),
  };
}

/**
 * The structure bytes read while opening: the first chunk, plus whatever IFDs or values lie
 * beyond it (each miss is one more read of at least `minRead` bytes). Counts its reads and
 * bytes so a caller can tell how many round trips the header cost.
 */
export class HeaderBytes {
  private chunks: { offset: number; bytes: Uint8Array }[] = [];
  reads = 0;
  bytesRead = 0;

  constructor(
    private readonly source: RangeSource,
    private readonly minRead: number,
    private readonly maxBytes: number,
  ) {}

  /** The bytes at [offset, offset + length): fewer when the file ends first. */
  async get(offset: number, length: number): Promise<Uint8Array> {
    for (const c of this.chunks)
      if (offset >= c.offset && offset + length <= c.offset + c.bytes.length)
        return c.bytes.subarray(offset - c.offset, offset - c.offset + length);
    const want = Math.max(length, this.minRead);
    const size = this.source.size;
    const n = size === undefined ? want : Math.max(0, Math.min(want, size - offset));
    if (this.bytesRead + n > this.maxBytes)
      fail(
        'limit',
        `the file's structure passes ${this.maxBytes} bytes (header, IFDs and their values)`,
      );
    const bytes = n > 0 ? await this.source.read(offset, n) : new Uint8Array(0);
    this.reads++;
    this.bytesRead += bytes.length;
    this.chunks.push({ offset, bytes });
    return bytes.subarray(0, Math.min(length, bytes.length));
  }
}
