/**
 * The bytes of a stored offline raster, by HTTP byte range, for the renderer's raster worker
 * (through Electron's `eo-raster:` scheme or browser mode's GET route: shared/raster-paths.ts).
 * Both pass the raster id and the `Range` header as they got them; they are checked here, the
 * boundary both paths cross. One range per request (what a COG reader asks), at most
 * `MAX_RANGE_BYTES`; the files stay open between requests (a few, least recently used closed).
 */
import fs from 'node:fs/promises';
import { z } from 'zod';
import type { OfflineRasters } from './offline-rasters';

/** One answer carries at most this (a COG reader asks for a tile or a header: well under). */
export const MAX_RANGE_BYTES = 64 * 1024 * 1024;
/** Open files kept for the next range. */
const OPEN_FILES = 8;

const RasterBytesRequest = z.strictObject({
  rasterId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s\p{Cc}]+$/u, 'a raster id has no spaces or control characters'),
  /** The `Range` header as sent, or null for the whole file. */
  range: z.string().max(200).nullable(),
});

export type RasterBytesAnswer =
  | {
      readonly status: 200 | 206;
      readonly bytes: Uint8Array;
      /** The file's size, and the first and last byte sent (inclusive). */
      readonly size: number;
      readonly start: number;
      readonly end: number;
    }
  | { readonly status: 400 | 413; readonly message: string }
  | { readonly status: 404 }
  | { readonly status: 416; readonly size: number };

/**
 * One `bytes=` range of a file of `size` bytes: `a-b`, `a-` or `-n` (RFC 9110), as inclusive
 * [start, end]; null when unsatisfiable; 'bad' when it is not one range of that form.
 */
export function parseByteRange(header: string, size: number): [number, number] | null | 'bad' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return null;
    return [Math.max(0, size - n), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return [start, end];
}

export function makeRasterBytes(rasters: Pick<OfflineRasters, 'stored'>) {
  const open = new Map<string, Promise<fs.FileHandle>>();

  async function handleOf(file: string): Promise<fs.FileHandle> {
    let h = open.get(file);
    if (h) {
      open.delete(file); // most recently used last
      open.set(file, h);
      return h;
    }
    h = fs.open(file, 'r');
    open.set(file, h);
    h.catch(() => open.delete(file));
    while (open.size > OPEN_FILES) {
      const [oldest, handle] = open.entries().next().value!;
      open.delete(oldest);
      void handle.then((x) => x.close()).catch(() => undefined);
    }
    return h;
  }

  return {
    async read(raw: unknown): Promise<RasterBytesAnswer> {
      const parsed = RasterBytesRequest.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return { status: 400, message: `${issue.path.join('.') || 'request'}: ${issue.message}` };
      }
      const { rasterId, range } = parsed.data;
      const stored = await rasters.stored(rasterId);
      if (!stored) return { status: 404 };
      const { file, size } = stored;
      let start = 0;
      let end = size - 1;
      if (range !== null) {
        const r = parseByteRange(range, size);
        if (r === 'bad') return { status: 400, message: 'Range: one range, bytes=a-b, a- or -n' };
        if (r === null) return { status: 416, size };
        [start, end] = r;
      }
      const length = end - start + 1;
      if (length > MAX_RANGE_BYTES)
        return { status: 413, message: `ask at most ${MAX_RANGE_BYTES} bytes per request` };
      const bytes = Buffer.alloc(Math.max(0, length));
      const handle = await handleOf(file);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await handle.read(bytes, got, length - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      // The file changed under us (replaced by a new take): say so rather than send short bytes.
      if (got < length) return { status: 404 };
      return { status: range === null ? 200 : 206, bytes, size, start, end };
    },
    async close() {
      const handles = [...open.values()];
      open.clear();
      await Promise.all(handles.map((h) => h.then((x) => x.close()).catch(() => undefined)));
    },
  };
}
