/**
 * The transfer layer of offline rasters against a real loopback file server: range reads and
 * their checks, the part file and its journal, the resumable whole file, and pieces fetched by
 * merged ranges. Faults are injected by the server (cut bodies, statuses, ignored ranges, a
 * changed file); nothing is mocked.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { openPartFile } from '../part-file';
import { fetchPieces, MAX_BATCH_BYTES, planBatches, type Piece } from '../range-fetch';
import {
  openRemoteFile,
  RangesUnsupported,
  RemoteFileChanged,
  RemoteFileError,
  SignedUrlExpired,
} from '../remote-file';
import { makeOfflineRasterStore, type OfflineRasterStore } from '../store';
import { fetchWholeFile, WHOLE_FILE_CHUNK } from '../whole-file';
import { startFileServer, type FileServer } from './file-server';

const tmp = tempDir('offline-transfer');
const FILE = crypto.randomBytes(5 * WHOLE_FILE_CHUNK + 12345);
let server: FileServer;
let db: MirrorDatabase;
let store: OfflineRasterStore;
let n = 0;

const noSleep = () => Promise.resolve();

beforeAll(async () => {
  server = await startFileServer(FILE);
  db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
  store = makeOfflineRasterStore(db.sqlite);
});
afterAll(async () => {
  db.close();
  await server.close();
  tmp.remove();
});
beforeEach(() => {
  server.setFile(FILE);
  server.setFault(() => 'pass');
  server.requests.length = 0;
});

/** A fresh raster row and its part file path. */
function newRaster() {
  const id = `off_t${++n}`;
  store.create({
    id,
    scene_kind: 'catalog',
    scene_ref: 'cat-1',
    aoi_id: null,
    scene_id: 'cat-1',
    area_json: '{}',
    area_label: 'test',
    resolution: 'native',
    idempotency_key: `k${n}`,
  });
  return { id, partPath: path.join(tmp.dir, `${id}.part`) };
}

const url = () => new URL(`${server.url}/file.bin`);

describe('openRemoteFile', () => {
  it('reads the head by one range, learns size, ETag and type, and sends no credentials', async () => {
    const { file, head } = await openRemoteFile(url(), 1000);
    expect(Buffer.from(head).equals(FILE.subarray(0, 1000))).toBe(true);
    expect(file.info).toMatchObject({ size: FILE.length, contentType: 'application/octet-stream' });
    expect(file.info.etag).toMatch(/^"/);
    expect(Buffer.from(await file.read(4000, 100)).equals(FILE.subarray(4000, 4100))).toBe(true);
    for (const r of server.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
      expect(r.headers['accept-encoding']).toMatch(/^identity\b/);
    }
    // Reads after the first name the file they began with.
    expect(server.requests[1]!.headers['if-range']).toBe(file.info.etag);
  });

  it('a refused signature is SignedUrlExpired; a host that ignores ranges is RangesUnsupported', async () => {
    server.setFault(() => ({ status: 403 }));
    await expect(openRemoteFile(url(), 1000)).rejects.toBeInstanceOf(SignedUrlExpired);
    server.setFault(() => 'ignore-range');
    await expect(openRemoteFile(url(), 1000)).rejects.toBeInstanceOf(RangesUnsupported);
  });

  it('a file changed under a reader is RemoteFileChanged, never bytes of two versions', async () => {
    const { file } = await openRemoteFile(url(), 1000);
    server.setFile(crypto.randomBytes(FILE.length));
    await expect(file.read(2000, 100)).rejects.toBeInstanceOf(RemoteFileChanged);
    await expect(
      openRemoteFile(url(), 1000, { expect: { etag: file.info.etag, size: FILE.length } }),
    ).rejects.toBeInstanceOf(RemoteFileChanged);
  });

  it('a cut body is a retryable RemoteFileError; the chunks before the cut were handed over', async () => {
    const { file } = await openRemoteFile(url(), 1000);
    server.setFault(() => ({ cutAfter: 700 }));
    const got: Uint8Array[] = [];
    const e = await file.readRange(10_000, 5000, (c) => got.push(c)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RemoteFileError);
    expect((e as RemoteFileError).retryable).toBe(true);
    const received = Buffer.concat(got);
    expect(received.length).toBeLessThanOrEqual(700);
    expect(received.equals(FILE.subarray(10_000, 10_000 + received.length))).toBe(true);
  });
});

describe('the part file and its journal', () => {
  it('keeps what the journal names and checks, cuts bytes it does not name, drops damaged pieces', () => {
    const { id, partPath } = newRaster();
    const part = openPartFile(store, id, partPath);
    part.append('a', FILE.subarray(0, 100));
    part.append('b', FILE.subarray(100, 300));
    part.close();
    // A piece written but never journaled (a kill -9 between the two), then a damaged one.
    fs.appendFileSync(partPath, FILE.subarray(300, 350));
    const again = openPartFile(store, id, partPath);
    expect([...again.pieces.keys()]).toEqual(['a', 'b']);
    expect(fs.statSync(partPath).size).toBe(300);
    expect(again.read('b').equals(FILE.subarray(100, 300))).toBe(true);
    again.close();
    const fd = fs.openSync(partPath, 'r+');
    fs.writeSync(fd, Buffer.from([0xff ^ FILE[150]!]), 0, 1, 150);
    fs.closeSync(fd);
    const third = openPartFile(store, id, partPath);
    expect([...third.pieces.keys()]).toEqual(['a']);
    expect(store.parts(id).map((p) => p.part)).toEqual(['a']);
    expect(fs.statSync(partPath).mode & 0o777).toBe(0o600);
    third.close();
  });
});

describe('fetchWholeFile', () => {
  it('downloads the whole file in journaled chunks, resuming after cuts from the last chunk', async () => {
    const { id, partPath } = newRaster();
    const { file } = await openRemoteFile(url(), 1000);
    // The first whole-file read is cut after 2.5 chunks, the second after 1.2: the journal keeps
    // whole chunks only, and each retry asks for the rest with a range.
    server.setFault((_r, k) =>
      k === 2
        ? { cutAfter: 2.5 * WHOLE_FILE_CHUNK }
        : k === 3
          ? { cutAfter: 1.2 * WHOLE_FILE_CHUNK }
          : 'pass',
    );
    const part = openPartFile(store, id, partPath);
    const progress: number[] = [];
    await fetchWholeFile(file, part, { sleep: noSleep, onProgress: (have) => progress.push(have) });
    part.close();
    expect(fs.readFileSync(partPath).equals(FILE)).toBe(true);
    const ranges = server.requests.slice(1).map((r) => r.range!.start);
    expect(ranges).toEqual([0, 2 * WHOLE_FILE_CHUNK, 3 * WHOLE_FILE_CHUNK]);
    expect(progress[progress.length - 1]).toBe(FILE.length);
  });

  it('a new run keeps the checked prefix and asks only for the rest', async () => {
    const { id, partPath } = newRaster();
    const first = await openRemoteFile(url(), 1000);
    server.setFault((_r, k) => (k === 2 ? { cutAfter: 3.5 * WHOLE_FILE_CHUNK } : 'pass'));
    const part = openPartFile(store, id, partPath);
    await expect(fetchWholeFile(first.file, part, { attempts: 1, sleep: noSleep })).rejects.toThrow(
      /cut off/,
    );
    part.close();
    server.setFault(() => 'pass');
    server.requests.length = 0;
    const second = await openRemoteFile(url(), 1000, {
      expect: { etag: first.file.info.etag, size: FILE.length },
    });
    const resumed = openPartFile(store, id, partPath);
    expect(resumed.keptBytes).toBe(3 * WHOLE_FILE_CHUNK);
    await fetchWholeFile(second.file, resumed, { sleep: noSleep });
    resumed.close();
    expect(server.requests[1]!.range!.start).toBe(3 * WHOLE_FILE_CHUNK);
    expect(fs.readFileSync(partPath).equals(FILE)).toBe(true);
  });
});

describe('pieces by merged ranges', () => {
  it('merges neighbours and small gaps within the waste allowance, never past the batch cap', () => {
    const p = (name: string, offset: number, length: number): Piece => ({ name, offset, length });
    // Tiles 8 bytes apart (a COG's leader and trailer) merge; a far one stays alone.
    const batches = planBatches([
      p('c', 2016, 1000),
      p('a', 0, 1000),
      p('b', 1008, 1000),
      p('far', 900_000, 1000),
    ]);
    expect(batches.map((b) => [b.offset, b.length, b.pieces.map((x) => x.name)])).toEqual([
      [0, 3016, ['a', 'b', 'c']],
      [900_000, 1000, ['far']],
    ]);
    const big = Array.from({ length: 10 }, (_, i) => p(`t${i}`, i * 1_000_008, 1_000_000));
    const capped = planBatches(big);
    expect(capped.length).toBeGreaterThan(2);
    for (const b of capped) expect(b.length).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    expect(capped.flatMap((b) => b.pieces.map((x) => x.name))).toEqual(big.map((x) => x.name));
  });

  it('keeps every complete piece of a cut batch and asks again only for the missing ones', async () => {
    const { id, partPath } = newRaster();
    const sentBefore = server.sentBytes;
    const { file, head } = await openRemoteFile(url(), 1000);
    expect(head.length).toBe(1000);
    const pieces: Piece[] = Array.from({ length: 12 }, (_, i) => ({
      name: `0/${i}`,
      offset: 2000 + i * 300_008,
      length: 300_000,
    }));
    // Every first request of a batch is cut after 700 kB: two pieces of it complete.
    const cutOnce = new Set<number>();
    server.setFault((r) => {
      if (!r.range || r.range.start === 0 || cutOnce.has(r.range.start)) return 'pass';
      cutOnce.add(r.range.start);
      return { cutAfter: 700_000 };
    });
    const part = openPartFile(store, id, partPath);
    const report = await fetchPieces(file, part, pieces, { sleep: noSleep });
    for (const piece of pieces)
      expect(
        part.read(piece.name).equals(FILE.subarray(piece.offset, piece.offset + piece.length)),
      ).toBe(true);
    part.close();
    expect(report.maxInFlight).toBeGreaterThanOrEqual(1);
    // After a cut, the next range starts at the first piece not kept.
    const starts = server.requests.slice(1).map((r) => r.range!.start);
    expect(starts).toContain(pieces[2]!.offset);
    // Bytes on the wire: the pieces, the bytes bridged between them, and what the cuts wasted.
    const need = pieces.reduce((s, p) => s + p.length, 0);
    expect(server.sentBytes - sentBefore - 1000).toBeLessThan(need * 1.2);
  });
});
