/**
 * Fetching many pieces of a remote file (a COG's tiles) by HTTP ranges, into the part file.
 *
 * - **Merged**: pieces sorted by offset are joined into one range when the bytes between them are
 *   few (a COG's tiles are separated by 8 bytes of leader and trailer; a window's tiles of one
 *   row are neighbours): gaps are taken, smallest first, while their bytes stay within
 *   `MERGE_WASTE` of the pieces' own, and none over `MAX_GAP`; a range stops growing at
 *   `MAX_BATCH_BYTES`, so a dropped link costs one batch and several batches share the link.
 * - **In flight**: as many batches as the link needs, chosen the way the api-client's pager sizes
 *   its read-ahead (`ReadAheadWindow`): from each batch's wait (round trip) and body time and
 *   the time spent writing a batch, seeded with the header's read; one batch always, at most
 *   1 + `READ_AHEAD_MAX`.
 * - **Cut into pieces as it arrives**: each piece is written and journaled as soon as its last
 *   byte is in (part-file.ts), so a link dropped mid-batch keeps every complete piece and loses
 *   the one it cut; a batch that failed is asked again for its missing pieces only (bounded
 *   tries without progress).
 */
import { ReadAheadWindow } from '@eo/api-client';
import type { PartFile } from './part-file';
import { RemoteFileError, type RangeTiming, type RemoteFile } from './remote-file';

export interface Piece {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
}

export interface Batch {
  readonly offset: number;
  readonly length: number;
  readonly pieces: readonly Piece[];
}

/** Most bytes between pieces fetched and thrown away, as a share of the pieces' bytes. */
export const MERGE_WASTE = 0.05;
/** No gap over this is bridged (a round trip is cheaper than much more). */
export const MAX_GAP = 64 * 1024;
/** A batch stops growing here (a dropped link costs at most one batch). */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** Pieces (sorted by offset, no overlap) joined into ranges (see the file's comment). */
export function planBatches(pieces: readonly Piece[]): Batch[] {
  const sorted = [...pieces].filter((p) => p.length > 0).sort((a, b) => a.offset - b.offset);
  if (sorted.length === 0) return [];
  const need = sorted.reduce((s, p) => s + p.length, 0);
  // Bridge the smallest gaps first while the waste allows.
  const gaps = sorted
    .slice(1)
    .map((p, i) => ({ i, bytes: p.offset - (sorted[i]!.offset + sorted[i]!.length) }))
    .filter((g) => g.bytes >= 0 && g.bytes <= MAX_GAP)
    .sort((a, b) => a.bytes - b.bytes || a.i - b.i);
  const bridged = new Set<number>();
  let waste = 0;
  for (const g of gaps) {
    if (waste + g.bytes > need * MERGE_WASTE && g.bytes > 0) break;
    waste += g.bytes;
    bridged.add(g.i);
  }
  const batches: Batch[] = [];
  let current: Piece[] = [sorted[0]!];
  const close = () => {
    const first = current[0]!;
    const last = current[current.length - 1]!;
    batches.push({
      offset: first.offset,
      length: last.offset + last.length - first.offset,
      pieces: current,
    });
  };
  for (let i = 1; i < sorted.length; i++) {
    const p = sorted[i]!;
    const start = current[0]!.offset;
    if (bridged.has(i - 1) && p.offset + p.length - start <= MAX_BATCH_BYTES) current.push(p);
    else {
      close();
      current = [p];
    }
  }
  close();
  return batches;
}

export interface RangeFetchOptions {
  readonly signal?: AbortSignal | undefined;
  /** A timing already measured on this link (the header's read) to size the first window. */
  readonly seed?: RangeTiming | undefined;
  /** Pieces kept (`done`) of `total` after each one. */
  readonly onPiece?: ((done: number, total: number) => void) | undefined;
  /** Batches fetched in a row without a new piece before giving up (default 5). */
  readonly attempts?: number | undefined;
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Each piece's bytes are checked before they are kept (the tile's length, say). */
  readonly checkPiece?: ((piece: Piece, bytes: Uint8Array) => void) | undefined;
}

export interface RangeFetchReport {
  readonly batches: number;
  readonly requests: number;
  /** The most batches that were in flight at once. */
  readonly maxInFlight: number;
}

const now = () => globalThis.performance.now();
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Fetches every piece the part file does not hold yet. */
export async function fetchPieces(
  file: RemoteFile,
  part: PartFile,
  pieces: readonly Piece[],
  options: RangeFetchOptions = {},
): Promise<RangeFetchReport> {
  const window = new ReadAheadWindow(true);
  if (options.seed) {
    window.observeNetwork(options.seed);
    window.observeWork(0);
  }
  const sleep = options.sleep ?? defaultSleep;
  const attempts = options.attempts ?? 5;
  const total = pieces.length;
  let queue = planBatches(pieces.filter((p) => !part.pieces.has(p.name)));
  let inFlight = 0;
  let maxInFlight = 0;
  let batchesDone = 0;
  let requests = 0;
  let failures = 0;
  let failure: unknown;
  const report = () => options.onPiece?.(part.pieces.size, total);
  report();

  const runBatch = async (batch: Batch): Promise<boolean> => {
    let at = batch.offset;
    let buffer: Uint8Array[] = [];
    let buffered = 0;
    let next = 0;
    let work = 0;
    let kept = 0;
    requests += 1;
    try {
      const timing = await file.readRange(batch.offset, batch.length, (chunk) => {
        buffer.push(chunk);
        buffered += chunk.byteLength;
        // Cut every piece whose last byte is in.
        while (next < batch.pieces.length) {
          const p = batch.pieces[next]!;
          if (at + buffered < p.offset + p.length) break;
          const t = now();
          const all = Buffer.concat(buffer, buffered);
          const bytes = all.subarray(p.offset - at, p.offset - at + p.length);
          options.checkPiece?.(p, bytes);
          if (!part.pieces.has(p.name)) part.append(p.name, bytes);
          kept += 1;
          report();
          buffer = [all.subarray(p.offset + p.length - at)];
          buffered = all.byteLength - (p.offset + p.length - at);
          at = p.offset + p.length;
          next += 1;
          work += now() - t;
        }
      });
      window.observeNetwork(timing);
      window.observeWork(work);
      failures = 0;
      return true;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      if (!(e instanceof RemoteFileError) || !e.retryable) throw e;
      failure = e;
      if (kept === 0) failures += 1;
      else failures = 0;
      return false;
    }
  };

  while (queue.length > 0) {
    if (failures >= attempts) throw failure;
    let fatal: { error: unknown } | undefined;
    // Start batches while the window allows; when one ends, look again. A fatal error stops
    // new starts and is thrown once every batch in flight has ended (none writes after it).
    await new Promise<void>((resolve) => {
      const pump = () => {
        if (options.signal?.aborted && !fatal) fatal = { error: options.signal.reason };
        const limit = 1 + window.depth;
        while (!fatal && queue.length > 0 && inFlight < limit && window.allows(inFlight)) {
          const batch = queue.shift()!;
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          runBatch(batch).then(
            () => {
              inFlight -= 1;
              batchesDone += 1;
              pump();
            },
            (e: unknown) => {
              inFlight -= 1;
              fatal ??= { error: e };
              pump();
            },
          );
        }
        if (inFlight === 0 && (fatal || queue.length === 0)) resolve();
      };
      pump();
    });
    if (fatal) throw fatal.error;
    // Pieces a failed batch did not bring: planned again, after a backoff.
    queue = planBatches(pieces.filter((p) => !part.pieces.has(p.name)));
    if (queue.length > 0) await sleep(Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1)));
  }
  return { batches: batchesDone, requests, maxInFlight };
}
