/** Sample types: what a TIFF's BitsPerSample + SampleFormat say, and the typed array of each. */
import { fail } from '../errors';

export type SampleType =
  'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

export type Samples =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

export const SAMPLE_BYTES: Readonly<Record<SampleType, number>> = {
  uint8: 1,
  int8: 1,
  uint16: 2,
  int16: 2,
  uint32: 4,
  int32: 4,
  float32: 4,
  float64: 8,
};

/** SampleFormat tag values. */
const FORMAT_UINT = 1;
const FORMAT_INT = 2;
const FORMAT_FLOAT = 3;

export const isFloat = (t: SampleType): boolean => t === 'float32' || t === 'float64';

export function sampleTypeOf(bits: number, format: number): SampleType {
  const kind = format === FORMAT_INT ? 'int' : format === FORMAT_FLOAT ? 'float' : 'uint';
  const name = `${kind}${bits}`;
  if (name in SAMPLE_BYTES) return name as SampleType;
  return fail(
    'unsupported',
    `samples of ${bits} bits, format ${format} (this reader takes 8/16/32-bit integers and 32/64-bit floats)`,
  );
}

export function tagsOfSampleType(t: SampleType): { bits: number; format: number } {
  return {
    bits: SAMPLE_BYTES[t] * 8,
    format: isFloat(t) ? FORMAT_FLOAT : t.startsWith('int') ? FORMAT_INT : FORMAT_UINT,
  };
}

/** A typed array of `t` with `length` elements (zeroed). */
export function allocSamples(t: SampleType, length: number): Samples {
  switch (t) {
    case 'uint8':
      return new Uint8Array(length);
    case 'int8':
      return new Int8Array(length);
    case 'uint16':
      return new Uint16Array(length);
    case 'int16':
      return new Int16Array(length);
    case 'uint32':
      return new Uint32Array(length);
    case 'int32':
      return new Int32Array(length);
    case 'float32':
      return new Float32Array(length);
    case 'float64':
      return new Float64Array(length);
  }
}

/** A typed array of `t` over (a copy of, when unaligned) little-endian bytes. */
export function samplesOfBytes(t: SampleType, bytes: Uint8Array, length: number): Samples {
  const size = SAMPLE_BYTES[t];
  let buf = bytes;
  if (bytes.byteOffset % size !== 0) buf = bytes.slice(0, length * size);
  const out = allocSamples(t, 0);
  const Ctor = out.constructor as new (b: ArrayBufferLike, o: number, l: number) => Samples;
  return new Ctor(buf.buffer, buf.byteOffset, length);
}

/** The bytes of a typed array (a view, no copy). */
export const bytesOfSamples = (s: Samples): Uint8Array =>
  new Uint8Array(s.buffer, s.byteOffset, s.byteLength);

/** True on little-endian hosts (every one we run on; checked, not assumed). */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Reverses the byte order of every `size`-byte word of `bytes`, in place. */
export function swapBytes(bytes: Uint8Array, size: number): void {
  if (size === 1) return;
  for (let i = 0; i + size <= bytes.length; i += size)
    for (let a = i, b = i + size - 1; a < b; a++, b--) {
      const t = bytes[a]!;
      bytes[a] = bytes[b]!;
      bytes[b] = t;
    }
}
