/**
 * Unsigned and zigzag-signed variable-length integers (7 bits a byte, low first), for the
 * compact geometry and record blobs. Arithmetic rather than bit operations: values go up to
 * 2^53 (JavaScript's bit operators stop at 32 bits).
 */

/** A growable byte buffer. */
export class ByteWriter {
  private bytes = new Uint8Array(64);
  length = 0;

  byte(b: number): void {
    if (this.length === this.bytes.length) {
      const next = new Uint8Array(this.bytes.length * 2);
      next.set(this.bytes);
      this.bytes = next;
    }
    this.bytes[this.length++] = b;
  }

  /** A non-negative safe integer. */
  uint(v: number): void {
    while (v >= 128) {
      this.byte((v % 128) + 128);
      v = Math.floor(v / 128);
    }
    this.byte(v);
  }

  /** A safe integer of either sign (|v| < 2^52). */
  int(v: number): void {
    this.uint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  text(s: string): void {
    const b = Buffer.from(s, 'utf8');
    for (const x of b) this.byte(x);
  }

  done(): Buffer {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length);
  }
}

/** Reads what ByteWriter wrote; throws a RangeError past the end (a damaged blob). */
export class ByteReader {
  pos: number;
  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
  ) {
    this.pos = start;
  }

  get atEnd(): boolean {
    return this.pos >= this.bytes.length;
  }

  byte(): number {
    if (this.pos >= this.bytes.length) throw new RangeError('compact blob: truncated');
    return this.bytes[this.pos++]!;
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b % 128) * scale;
      if (b < 128) return v;
      scale *= 128;
      if (scale > 2 ** 56) throw new RangeError('compact blob: varint too long');
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  /** The bytes from here to the end, as UTF-8. */
  rest(): string {
    const start = this.pos;
    this.pos = this.bytes.length;
    return Buffer.from(
      this.bytes.buffer,
      this.bytes.byteOffset + start,
      this.bytes.length - start,
    ).toString('utf8');
  }
}
