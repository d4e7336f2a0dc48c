/**
 * The body pool on a real `node:http` listener (127.0.0.1): a Buffer is lent to one response,
 * comes back when that response has finished and not before, and is what the next response
 * gets; what is not the pool's, or too large to keep, is left alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { within } from '../../__tests__/within';
import { BodyPool } from '../body-pool';

/** What the next request's handler does with its response (set by each test). */
let handle: (res: http.ServerResponse) => void = () => {};
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((_req, res) => handle(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A promise and what settles it: the moments a handler and a test wait for. */
function signal(): { reached: Promise<void>; reach: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

/** Bounded waits here: a step of a local round trip, well inside the test's timeout. */
const WAIT_MS = 5000;

/** A GET whose body is read whole. */
const get = async (): Promise<Buffer> => Buffer.from(await (await fetch(base)).arrayBuffer());

/**
 * Serves the next request with `body` (lent back to `pool` when sent); resolves once the
 * server's response has finished, after the pool's own `finish` listener ran.
 */
function serveNext(pool: BodyPool, body: Buffer): Promise<void> {
  const finished = signal();
  handle = (res) => {
    pool.returnWhenSent(res, body);
    res.once('finish', finished.reach);
    res.end(body);
  };
  return finished.reached;
}

describe('BodyPool', () => {
  it('lends a Buffer of at least the size asked for, and takes it back once its response is sent', async () => {
    const pool = new BodyPool({ smallestBytes: 4096 });
    const lent = pool.take(10_000);
    expect(lent.length).toBeGreaterThanOrEqual(10_000);
    const body = lent.subarray(0, 10_000).fill(0x61);
    expect(pool.freeCount).toBe(0);

    const finished = serveNext(pool, body);
    expect((await get()).equals(Buffer.alloc(10_000, 0x61))).toBe(true);
    await within(WAIT_MS, 'the response finishing', finished);
    expect(pool.freeCount).toBe(1);
    // The next body is written over the same memory.
    expect(pool.take(10_000).buffer).toBe(lent.buffer);
    expect(pool.freeCount).toBe(0);
  });

  it('never lends a Buffer twice while its response is being sent', async () => {
    const pool = new BodyPool({ smallestBytes: 4096 });
    const first = pool.take(100).fill(0x63).subarray(0, 100);
    const held = signal();
    const writing = signal();
    const sent = signal();
    handle = (res) => {
      pool.returnWhenSent(res, first);
      res.once('finish', sent.reach);
      res.write(first.subarray(0, 50));
      writing.reach();
      // The rest only once the test says so: until then the response is unfinished.
      void held.reached.then(() => res.end(first.subarray(50)));
    };
    const reply = get();
    await within(WAIT_MS, 'the handler starting its response', writing.reached);
    const second = pool.take(100);
    expect(second.buffer).not.toBe(first.buffer);
    held.reach();
    expect((await reply).equals(Buffer.alloc(100, 0x63))).toBe(true);
    await within(WAIT_MS, 'the response finishing', sent.reached);
    expect(pool.freeCount).toBe(1);
    expect(pool.take(100).buffer).toBe(first.buffer);
  });

  it('keeps a Buffer away from other responses when its client went away before the end', async () => {
    const pool = new BodyPool({ smallestBytes: 4096 });
    const body = pool.take(100).fill(0x64).subarray(0, 100);
    const closed = signal();
    const writing = signal();
    handle = (res) => {
      pool.returnWhenSent(res, body);
      res.once('close', closed.reach);
      res.write(body.subarray(0, 50));
      writing.reach();
    };
    const client = new AbortController();
    const reply = fetch(base, { signal: client.signal }).then(
      async (r) => r.body?.getReader().read(),
      () => undefined,
    );
    await within(WAIT_MS, 'the handler starting its response', writing.reached);
    await reply;
    client.abort();
    await within(WAIT_MS, 'the server seeing the client go', closed.reached);
    // Never finished: not taken back, so no other body is written over bytes a socket may
    // still hold.
    expect(pool.freeCount).toBe(0);
    expect(pool.take(100).buffer).not.toBe(body.buffer);
  });

  it('leaves alone a Buffer it did not lend, and does not keep one above its largest size', async () => {
    const pool = new BodyPool({ smallestBytes: 1024, largestKeptBytes: 8192 });
    const foreign = Buffer.alloc(2048, 0x62);
    let finished = serveNext(pool, foreign);
    await get();
    await within(WAIT_MS, 'the response finishing', finished);
    expect(pool.freeCount).toBe(0);

    const large = pool.take(20_000);
    finished = serveNext(pool, large.subarray(0, 20_000));
    expect((await get()).length).toBe(20_000);
    await within(WAIT_MS, 'the response finishing', finished);
    expect(pool.freeCount).toBe(0);
  });

  it('keeps at most `kept` free Buffers', async () => {
    const pool = new BodyPool({ smallestBytes: 1024, kept: 2 });
    const lent = [pool.take(10), pool.take(10), pool.take(10)];
    expect(new Set(lent.map((b) => b.buffer)).size).toBe(3);
    for (const body of lent) {
      const finished = serveNext(pool, body.subarray(0, 10));
      await get();
      await within(WAIT_MS, 'the response finishing', finished);
    }
    expect(pool.freeCount).toBe(2);
  });
});
