/**
 * Copying a file onto slow or unreliable media (a USB stick, an SD card, a shared folder) so
 * that a copy cut short resumes where it stopped: the bytes go to `<dest>.part` in blocks, each
 * written and flushed before the next; a later copy of the same source finds the part, checks
 * that its last block is the source's (a different or damaged part starts over) and goes on
 * from there; once whole, the part is flushed, checked by size and SHA-256 against the source,
 * and renamed to `dest`. No memory beyond one block; no `dest` until it is complete.
 *
 * Node's fs only (the desktop's main process copies with it too: `@eo/sync/copy`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';

export interface CopyProgress {
  readonly copied: number;
  readonly total: number;
  /** Where this run started (0: from the beginning; more: resumed). */
  readonly resumedAt: number;
}

export interface CopyOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: CopyProgress) => void) | undefined;
  /** Bytes per block (default 4 MB). */
  readonly blockBytes?: number | undefined;
  /** The source's SHA-256 if known (else it is computed while copying and reading the part). */
  readonly sha256?: string | undefined;
}

export interface CopyResult {
  readonly file: string;
  readonly bytes: number;
  readonly resumedAt: number;
  readonly sha256: string;
}

/** The copy failed its check: the destination holds a damaged part (removed). */
export class CopyCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyCheckError';
  }
}

export const partFile = (dest: string): string => `${dest}.part`;

const BLOCK = 4 * 1024 * 1024;

type Handle = fs.promises.FileHandle;

async function readAt(fd: Handle, buf: Buffer, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fd.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/** How much of `part` can be kept: its length, if its last block is the source's there. */
async function resumable(src: Handle, part: string, total: number, block: number) {
  let size: number;
  try {
    size = (await fs.promises.stat(part)).size;
  } catch {
    return 0;
  }
  if (size === 0 || size > total) return 0;
  const start = Math.max(0, size - block);
  const a = Buffer.alloc(size - start);
  const b = Buffer.alloc(size - start);
  const fd = await fs.promises.open(part, 'r');
  try {
    await readAt(fd, a, a.length, start);
  } finally {
    await fd.close();
  }
  await readAt(src, b, b.length, start);
  return a.equals(b) ? size : 0;
}

/** The SHA-256 of the first `bytes` of an open file. */
async function hashOf(fd: Handle, bytes: number, block: Buffer, signal?: AbortSignal) {
  const hash = crypto.createHash('sha256');
  for (let at = 0; at < bytes;) {
    signal?.throwIfAborted();
    const n = await readAt(fd, block, Math.min(block.length, bytes - at), at);
    if (n === 0) throw new CopyCheckError('the file ended before its size');
    hash.update(block.subarray(0, n));
    at += n;
  }
  return hash.digest('hex');
}

/** Copies `src` to `dest`, resuming a part an earlier copy left. */
export async function copyResumable(
  src: string,
  dest: string,
  options: CopyOptions = {},
): Promise<CopyResult> {
  const block = Buffer.alloc(options.blockBytes ?? BLOCK);
  const total = (await fs.promises.stat(src)).size;
  const part = partFile(dest);
  const input = await fs.promises.open(src, 'r');
  try {
    const resumedAt = await resumable(input, part, total, block.length);
    const out = await fs.promises.open(part, resumedAt > 0 ? 'r+' : 'w+');
    let sha256: string;
    try {
      for (let at = resumedAt; at < total;) {
        options.signal?.throwIfAborted();
        const n = await readAt(input, block, Math.min(block.length, total - at), at);
        if (n === 0) throw new CopyCheckError(`${src} ended before its size`);
        await out.write(block, 0, n, at);
        // Flushed block by block: what the medium says it holds is what a resumed copy keeps.
        await out.sync();
        at += n;
        options.onProgress?.({ copied: at, total, resumedAt });
      }
      await out.truncate(total);
      await out.sync();
      sha256 = options.sha256 ?? (await hashOf(input, total, block, options.signal));
      const written = await hashOf(out, total, block, options.signal);
      if (written !== sha256) {
        // A part that fails its check is not resumed: the next copy starts over.
        await fs.promises.rm(part, { force: true });
        throw new CopyCheckError(
          `the copy at ${dest} does not match the source (the medium may be failing): copy it again`,
        );
      }
    } finally {
      await out.close();
    }
    await fs.promises.rename(part, dest);
    return { file: dest, bytes: total, resumedAt, sha256 };
  } finally {
    await input.close();
  }
}
