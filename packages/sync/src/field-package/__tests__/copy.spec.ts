/**
 * The copy onto slow media: whole or absent at its destination, and resumed where it stopped
 * (a pulled stick, Ctrl-C) when its part still matches the source; started over otherwise.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyResumable, partFile } from '../copy';

const BLOCK = 64 * 1024;
let dir: string;
let src: string;
let bytes: Buffer;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-copy-'));
  src = path.join(dir, 'site.gpkg');
  // Not a whole number of blocks: the last one is short.
  bytes = crypto.randomBytes(10 * BLOCK + 1234);
  fs.writeFileSync(src, bytes);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A copy stopped once `blocks` blocks are on the medium. */
async function stoppedAfter(dest: string, blocks: number): Promise<void> {
  const stop = new AbortController();
  const error = await copyResumable(src, dest, {
    blockBytes: BLOCK,
    signal: stop.signal,
    onProgress: (p) => {
      if (p.copied >= blocks * BLOCK) stop.abort();
    },
  }).catch((e: unknown) => e);
  expect((error as Error).name).toBe('AbortError');
}

describe('copyResumable', () => {
  it('copies the whole file, checked by its SHA-256', async () => {
    const dest = path.join(dir, 'stick', 'a.gpkg');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const result = await copyResumable(src, dest, { blockBytes: BLOCK });
    expect(result).toEqual({ file: dest, bytes: bytes.length, resumedAt: 0, sha256: sha(bytes) });
    expect(fs.readFileSync(dest).equals(bytes)).toBe(true);
    expect(fs.existsSync(partFile(dest))).toBe(false);
  });

  it('stopped part way, leaves only its part; run again, goes on from there', async () => {
    const dest = path.join(dir, 'b.gpkg');
    await stoppedAfter(dest, 4);
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.statSync(partFile(dest)).size).toBe(4 * BLOCK);
    const seen: number[] = [];
    const result = await copyResumable(src, dest, {
      blockBytes: BLOCK,
      onProgress: (p) => seen.push(p.copied),
    });
    expect(result.resumedAt).toBe(4 * BLOCK);
    // Only the blocks after the part were written this time.
    expect(seen[0]).toBe(5 * BLOCK);
    expect(seen).toHaveLength(7);
    expect(fs.readFileSync(dest).equals(bytes)).toBe(true);
  });

  it('starts over when the part is not the source’s (another file, or damaged)', async () => {
    const dest = path.join(dir, 'c.gpkg');
    await stoppedAfter(dest, 3);
    const part = fs.readFileSync(partFile(dest));
    part.writeUInt8(part.readUInt8(part.length - 10) ^ 0xff, part.length - 10); // a bit lost
    fs.writeFileSync(partFile(dest), part);
    const result = await copyResumable(src, dest, { blockBytes: BLOCK });
    expect(result.resumedAt).toBe(0);
    expect(fs.readFileSync(dest).equals(bytes)).toBe(true);
  });

  it('refuses a destination whose bytes are not the source’s, and keeps no part of it', async () => {
    const dest = path.join(dir, 'd.gpkg');
    const error = await copyResumable(src, dest, {
      blockBytes: BLOCK,
      sha256: sha(Buffer.from('other')),
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/does not match the source/);
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.existsSync(partFile(dest))).toBe(false);
  });
});
