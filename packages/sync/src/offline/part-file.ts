/**
 * The part file of a download in progress, and its journal (`offline_raster_parts`): pieces (a
 * COG's tiles, or a whole file's chunks) are written to the file first, then named in the journal
 * with their place, length and SHA-256 in one small transaction. So after a kill -9 or a power
 * cut, what the journal names is on disk (or fails its hash and is fetched again), and bytes the
 * journal does not name (a piece cut off mid-way, or written just before the crash) are cut off
 * the file when it is opened again: a truncated piece is never kept.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { PRIVATE_FILE_MODE } from '../db/private-files';
import type { OfflineRasterStore, PartRow } from './store';

export const sha256 = (b: Uint8Array): string =>
  crypto.createHash('sha256').update(b).digest('hex');

export interface PartFile {
  /** The pieces the journal names that passed their check, by name. */
  readonly pieces: ReadonlyMap<string, PartRow>;
  /** Bytes of checked pieces. */
  readonly keptBytes: number;
  /** Appends a complete piece and journals it; returns its row. */
  append(part: string, bytes: Uint8Array): PartRow;
  /** A kept piece's bytes, checked again. */
  read(part: string): Buffer;
  /** Forgets every piece and byte from `offset` on (a whole file keeps only its prefix). */
  truncate(offset: number): void;
  /** The file's length: the end of the last kept piece. */
  readonly end: number;
  close(): void;
}

/**
 * Opens (creating 0600) the part file of `rasterId` at `file`: checks every journaled piece
 * (length and hash), forgets the bad ones, and cuts the file after the last good byte.
 */
export function openPartFile(store: OfflineRasterStore, rasterId: string, file: string): PartFile {
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, PRIVATE_FILE_MODE);
  fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  const size = fs.fstatSync(fd).size;
  const pieces = new Map<string, PartRow>();
  let end = 0;
  for (const row of store.parts(rasterId)) {
    const ok =
      row.part_offset + row.length <= size &&
      sha256(readAt(fd, row.part_offset, row.length)) === row.sha256;
    if (!ok) {
      store.dropPart(rasterId, row.part);
      continue;
    }
    pieces.set(row.part, row);
    end = Math.max(end, row.part_offset + row.length);
  }
  // Pieces are appended, so a gap left by a bad piece is reused only after the end: keep the
  // file up to the last good piece and cut what no journal row names.
  fs.ftruncateSync(fd, end);
  let keptBytes = 0;
  for (const p of pieces.values()) keptBytes += p.length;

  return {
    pieces,
    get keptBytes() {
      return keptBytes;
    },
    append(part, bytes) {
      const row: PartRow = {
        raster_id: rasterId,
        part,
        part_offset: end,
        length: bytes.byteLength,
        sha256: sha256(bytes),
      };
      // Written before it is journaled: the journal never names bytes that are not there.
      let done = 0;
      while (done < bytes.byteLength)
        done += fs.writeSync(fd, bytes, done, bytes.byteLength - done, end + done);
      store.addPart(row);
      end += bytes.byteLength;
      keptBytes += bytes.byteLength;
      pieces.set(part, row);
      return row;
    },
    read(part) {
      const row = pieces.get(part);
      if (!row) throw new Error(`no piece ${part} in the part file`);
      const bytes = readAt(fd, row.part_offset, row.length);
      if (sha256(bytes) !== row.sha256)
        throw new Error(`piece ${part} of the part file is damaged`);
      return bytes;
    },
    truncate(offset) {
      for (const [name, row] of pieces) {
        if (row.part_offset + row.length <= offset) continue;
        store.dropPart(rasterId, name);
        pieces.delete(name);
        keptBytes -= row.length;
      }
      end = Math.min(end, offset);
      fs.ftruncateSync(fd, end);
    },
    get end() {
      return end;
    },
    close: () => fs.closeSync(fd),
  };
}

function readAt(fd: number, offset: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, b, done, length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? b : b.subarray(0, done);
}
