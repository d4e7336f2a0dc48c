/**
 * The fallback when a download's file is not a Cloud-Optimized GeoTIFF (the provider's may be
 * an archive, or a GeoTIFF without the COG layout): the whole file, resumable. It goes into the
 * part file in chunks of `WHOLE_FILE_CHUNK` bytes, each journaled once on disk (part-file.ts);
 * a resumed download keeps the checked prefix and asks for the rest with `Range` and `If-Range`
 * (the same file or nothing: a changed file starts again from its first byte). A dropped link
 * is tried again (bounded, with backoff) from the last journaled chunk.
 */
import { RemoteFileChanged, RemoteFileError, type RemoteFile } from './remote-file';
import type { PartFile } from './part-file';

/** Journal granularity: what a cut link can cost at most (a second at 8 Mbit/s). */
export const WHOLE_FILE_CHUNK = 1024 * 1024;

export interface WholeFileOptions {
  readonly signal?: AbortSignal | undefined;
  /** Bytes on disk (kept and new) of `size`. */
  readonly onProgress?: ((have: number, size: number) => void) | undefined;
  /** Tries of a cut or failed read in this run (default 5). */
  readonly attempts?: number | undefined;
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
}

const chunkName = (n: number) => `chunk/${n}`;
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The longest run of chunks from byte 0, in order: what a resumed download keeps. */
export function keptPrefix(part: PartFile): number {
  let have = 0;
  for (let n = 0; ; n++) {
    const row = part.pieces.get(chunkName(n));
    if (!row || row.part_offset !== have) return have;
    have += row.length;
  }
}

export async function fetchWholeFile(
  file: RemoteFile,
  part: PartFile,
  options: WholeFileOptions = {},
): Promise<void> {
  const size = file.info.size;
  const sleep = options.sleep ?? defaultSleep;
  const attempts = options.attempts ?? 5;
  part.truncate(keptPrefix(part));
  for (let attempt = 1; ; attempt++) {
    const have = part.end;
    options.onProgress?.(have, size);
    if (have >= size) return;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let next = Math.floor(have / WHOLE_FILE_CHUNK);
    const flush = () => {
      part.append(chunkName(next++), Buffer.concat(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
      options.onProgress?.(part.end, size);
    };
    try {
      await file.readRange(have, size - have, (c) => {
        pending.push(c);
        pendingBytes += c.byteLength;
        while (pendingBytes >= WHOLE_FILE_CHUNK) {
          const all = Buffer.concat(pending, pendingBytes);
          pending = [all.subarray(WHOLE_FILE_CHUNK)];
          pendingBytes = all.byteLength - WHOLE_FILE_CHUNK;
          part.append(chunkName(next++), all.subarray(0, WHOLE_FILE_CHUNK));
          options.onProgress?.(part.end, size);
        }
      });
      if (pendingBytes > 0) flush();
      return;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      if (e instanceof RemoteFileChanged && have > 0) {
        // Another file now: what we kept is of the old one.
        part.truncate(0);
        throw e;
      }
      if (!(e instanceof RemoteFileError) || !e.retryable || attempt >= attempts) throw e;
      // What arrived before the cut is dropped with its unfinished chunk; the journal's stay.
      await sleep(Math.min(30_000, 500 * 2 ** (attempt - 1)));
    }
  }
}
