/**
 * Projected lines (`world-shapes.ts`) as the build ships them: each typed array's bytes in
 * base64, so the map reads its shapes by copying bytes, with no TopoJSON decoding, projection or
 * number parsing at run time (`vite/basemap-data.ts` writes them with `packLines`). The bytes are
 * in the machine's order: the build and every computer the app runs on are little-endian.
 */
import type { ProjectedLines } from './world-shapes';

export interface PackedLines {
  readonly offsets: string;
  readonly points: string;
  readonly boxes: string;
}

function base64Of(a: Uint32Array | Float64Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** `Uint8Array.fromBase64`, where the engine has it (Chromium 140 and later; not Node 20). */
type FromBase64 = (text: string) => Uint8Array<ArrayBuffer>;

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  // Native where there is one: the copy loop below took ~10 ms of the first screen for the
  // world view's shapes and water; Electron's and today's browsers' engines have it.
  const native = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
  if (native) return native.call(Uint8Array, base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesOf(base64: string, width: number, what: string): ArrayBuffer {
  const bytes = decodeBase64(base64);
  if (bytes.length % width !== 0) throw new Error(`packed lines: ${what} is not whole numbers`);
  return bytes.buffer;
}

export function packLines(lines: ProjectedLines): PackedLines {
  return {
    offsets: base64Of(lines.offsets),
    points: base64Of(lines.points),
    boxes: base64Of(lines.boxes),
  };
}

/** The lines back, exactly as packed; throws on arrays that do not fit together. */
export function unpackLines(packed: PackedLines): ProjectedLines {
  const offsets = new Uint32Array(bytesOf(packed.offsets, 4, 'offsets'));
  const points = new Float64Array(bytesOf(packed.points, 8, 'points'));
  const boxes = new Float64Array(bytesOf(packed.boxes, 8, 'boxes'));
  const n = offsets.length - 1;
  if (n < 0 || boxes.length !== n * 4 || offsets[n]! * 2 !== points.length) {
    throw new Error('packed lines: offsets, points and boxes do not fit together');
  }
  for (let i = 0; i < n; i++) {
    if (offsets[i]! > offsets[i + 1]!) throw new Error('packed lines: offsets go backwards');
  }
  return { offsets, points, boxes };
}
