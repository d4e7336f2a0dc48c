/**
 * `catalog.footprints` crosses the desktop boundary as ONE binary message, not JSON: 100,000
 * footprints were 12 MB of JSON text to build, send and parse; as bytes they are ids plus
 * Float32 coordinates, and the page reads the coordinates in place.
 *
 * Layout (little-endian; every section starts on a 4-byte boundary):
 *
 * | bytes                | what                                                             |
 * | -------------------- | ---------------------------------------------------------------- |
 * | 0..24                | u32 magic `EOFP`, u32 version (1), u32 count, u32 points,         |
 * |                      | u32 idUnits (UTF-16 units of all ids), u32 idBytes (their UTF-8)  |
 * | 4 × (count + 1)      | ring offsets, in points: footprint i owns points [o[i], o[i+1])   |
 * | 4 × (count + 1)      | id offsets, in UTF-16 units of the ids joined                     |
 * | 8 × points           | Float32 lon, lat per point (rings not closed: the map closes them) |
 * | idBytes              | the ids joined, UTF-8                                            |
 *
 * The page does not trust the backend's bytes blindly: `decodeFootprints` checks the header,
 * that every section fits the length exactly, that offsets rise to their totals, that each ring
 * has 3 points and every coordinate is finite, and throws a `FootprintsFormatError` otherwise.
 */
import { z } from 'zod';

/** A decoded answer: what the map draws. */
export interface FootprintSet {
  readonly ids: readonly string[];
  /** `ids.length + 1` point offsets. */
  readonly offsets: Uint32Array;
  /** lon, lat per point. */
  readonly coords: Float32Array;
}

/**
 * An answer to send: its ids as the message carries them (joined, each one's offset in UTF-16
 * units beside them), as the mirror reads and keeps them: 100,000 ids made into an array only to
 * be joined again here took 37 to 39 ms to encode in a fresh process, 19 to 20 ms this way.
 */
export interface FootprintsToSend {
  /** Every id, joined without a separator. */
  readonly idText: string;
  /** `count + 1` offsets into `idText`, from 0 to its length. */
  readonly idOffsets: Uint32Array;
  /** `count + 1` point offsets. */
  readonly offsets: Uint32Array;
  readonly coords: Float32Array;
}

/** `ids` as `FootprintsToSend` carries them. */
export function joinedIds(ids: readonly string[]): Pick<FootprintsToSend, 'idText' | 'idOffsets'> {
  const idOffsets = new Uint32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) idOffsets[i + 1] = idOffsets[i]! + ids[i]!.length;
  return { idText: ids.join(''), idOffsets };
}

const MAGIC = 0x5046_4f45; // 'EOFP' read as a little-endian u32
const VERSION = 1;
const HEADER = 24;
/** The fewest points a ring is drawn with. */
const MIN_POINTS = 3;

export class FootprintsFormatError extends Error {
  constructor(detail: string) {
    super(`catalog.footprints: unreadable answer (${detail})`);
    this.name = 'FootprintsFormatError';
  }
}

// Typed arrays are read in the platform's byte order; every platform the app runs on is
// little-endian, and a big-endian one must not misread coordinates silently.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeFootprints(set: FootprintsToSend): Uint8Array<ArrayBuffer> {
  if (!LITTLE_ENDIAN) throw new FootprintsFormatError('big-endian platform');
  const count = set.idOffsets.length - 1;
  const points = set.offsets[count] ?? 0;
  if (count < 0 || set.idOffsets[count] !== set.idText.length) {
    throw new FootprintsFormatError('id offsets do not end at the ids');
  }
  const idBytes = new TextEncoder().encode(set.idText);
  const coordsAt = HEADER + 8 * (count + 1);
  const out = new Uint8Array(coordsAt + 8 * points + idBytes.length);
  new Uint32Array(out.buffer, 0, 6).set([
    MAGIC,
    VERSION,
    count,
    points,
    set.idText.length,
    idBytes.length,
  ]);
  new Uint32Array(out.buffer, HEADER, count + 1).set(set.offsets.subarray(0, count + 1));
  new Uint32Array(out.buffer, HEADER + 4 * (count + 1), count + 1).set(set.idOffsets);
  new Float32Array(out.buffer, coordsAt, points * 2).set(set.coords.subarray(0, points * 2));
  out.set(idBytes, coordsAt + 8 * points);
  return out;
}

export function decodeFootprints(input: Uint8Array): FootprintSet {
  if (!LITTLE_ENDIAN) throw new FootprintsFormatError('big-endian platform');
  if (!(input instanceof Uint8Array)) throw new FootprintsFormatError('not bytes');
  if (input.byteLength < HEADER + 8) throw new FootprintsFormatError('too short');
  // Typed-array views need 4-byte alignment: a view into a larger buffer may not have it.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, 6);
  const [magic, version, count, points, idUnits, idBytes] = header as unknown as number[];
  if (magic !== MAGIC) throw new FootprintsFormatError('not a footprints message');
  if (version !== VERSION) throw new FootprintsFormatError(`version ${version}`);
  const coordsAt = HEADER + 8 * (count! + 1);
  const expected = coordsAt + 8 * points! + idBytes!;
  if (bytes.byteLength !== expected) {
    throw new FootprintsFormatError(`${bytes.byteLength} bytes where the header says ${expected}`);
  }
  const offsets = new Uint32Array(bytes.buffer, bytes.byteOffset + HEADER, count! + 1);
  const idOffsets = new Uint32Array(
    bytes.buffer,
    bytes.byteOffset + HEADER + 4 * (count! + 1),
    count! + 1,
  );
  rising(offsets, points!, MIN_POINTS, 'ring offsets');
  rising(idOffsets, idUnits!, 0, 'id offsets');
  const coords = new Float32Array(bytes.buffer, bytes.byteOffset + coordsAt, points! * 2);
  for (let i = 0; i < coords.length; i++) {
    if (!Number.isFinite(coords[i])) throw new FootprintsFormatError(`coordinate ${i} not finite`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(coordsAt + 8 * points!));
  } catch {
    throw new FootprintsFormatError('ids are not UTF-8');
  }
  if (text.length !== idUnits) throw new FootprintsFormatError('ids do not match their offsets');
  const ids = new Array<string>(count!);
  for (let i = 0; i < count!; i++) ids[i] = text.slice(idOffsets[i], idOffsets[i + 1]);
  return { ids, offsets, coords };
}

/** Starts at 0, each step at least `step` (so never falls), ends at `total`. */
function rising(offsets: Uint32Array, total: number, step: number, what: string): void {
  if (offsets[0] !== 0) throw new FootprintsFormatError(`${what} do not start at 0`);
  for (let i = 1; i < offsets.length; i++) {
    if (offsets[i]! - offsets[i - 1]! < step) {
      throw new FootprintsFormatError(`${what} fall or step short at ${i}`);
    }
  }
  if (offsets[offsets.length - 1] !== total) {
    throw new FootprintsFormatError(`${what} end at ${offsets[offsets.length - 1]}, not ${total}`);
  }
}

/** The contract's output: the bytes, checked by decoding them (tests validate every output). */
export const FootprintsBytes = z.custom<Uint8Array>((v) => {
  if (!(v instanceof Uint8Array)) return false;
  try {
    decodeFootprints(v);
    return true;
  } catch {
    return false;
  }
}, 'a footprints message (see footprints-wire.ts)');
