/**
 * The link's shaping, with small transfers: byte counts are asserted exactly, times only as
 * lower bounds (timers deliver late on a busy machine, never early), so nothing here races.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LINKS, linkFloorMs, startLink, type Link, type LinkProfile } from '../link';

/** Timers are rounded to whole ms: allow that much below the model. */
const CLOCK_MS = 2;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** A TCP service: reads `request` bytes, answers with `reply`, then ends. */
async function replyServer(requestBytes: number, reply: Buffer): Promise<string> {
  const server = net.createServer((s) => {
    let got = 0;
    s.on('data', (d: Buffer) => {
      got += d.length;
      if (got === requestBytes) s.end(reply);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

async function link(target: string, profile: LinkProfile): Promise<Link> {
  const l = await startLink(target, profile);
  closers.push(() => l.close());
  return l;
}

/** Sends `request` over a new connection to `url`; resolves with all bytes read until the end. */
function exchange(url: string, request: Buffer): Promise<{ body: Buffer; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(new URL(url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => {
      resolve({ body: Buffer.concat(chunks), ms: performance.now() - t0 });
      s.end();
    });
    s.on('error', reject);
    s.write(request);
  });
}

/** 800 kbit/s = 100 bytes per ms; 200 ms round trips. */
const SLOW: LinkProfile = { name: 'test', bitsPerSecond: 800_000, rttMs: 200 };

describe('link', () => {
  it('carries bytes exactly, counts them per direction, and takes at least the model time', async () => {
    const reply = randomBytes(10_000);
    const l = await link(await replyServer(100, reply), SLOW);
    const { body, ms } = await exchange(l.url, randomBytes(100));
    expect(body.equals(reply)).toBe(true);
    expect(l.counters()).toEqual({ up: 100, down: 10_000, connections: 1 });
    // Handshake (1 RTT), 100 bytes up (1 ms) + half an RTT, 10,000 bytes down (100 ms) + half an RTT.
    expect(ms).toBeGreaterThanOrEqual(200 + 1 + 100 + 100 + 100 - CLOCK_MS);
  });

  it('shares one line between connections in the same direction', async () => {
    const reply = randomBytes(20_000);
    const l = await link(await replyServer(10, reply), SLOW);
    const t0 = performance.now();
    const both = await Promise.all([
      exchange(l.url, randomBytes(10)),
      exchange(l.url, randomBytes(10)),
    ]);
    const ms = performance.now() - t0;
    for (const r of both) expect(r.body.equals(reply)).toBe(true);
    expect(l.counters()).toEqual({ up: 20, down: 40_000, connections: 2 });
    // 40,000 bytes down at 100 bytes/ms, after a handshake and one round trip.
    expect(ms).toBeGreaterThanOrEqual(400 + 200 + 200 - CLOCK_MS);
  });

  it('keeps order and content through a big transfer (reads paused while the line is full)', async () => {
    const reply = randomBytes(3 * 1024 * 1024);
    const fast: LinkProfile = { name: 'fast', bitsPerSecond: 400_000_000, rttMs: 10 };
    const l = await link(await replyServer(1, reply), fast);
    const { body, ms } = await exchange(l.url, Buffer.from('x'));
    expect(body.equals(reply)).toBe(true);
    expect(l.counters().down).toBe(reply.length);
    expect(ms).toBeGreaterThanOrEqual(linkFloorMs(fast, reply.length) - CLOCK_MS);
  });

  it('carries HTTP (keep-alive: one handshake for two requests) and resets its counters', async () => {
    const server = http.createServer((_req, res) => res.end('x'.repeat(1000)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const l = await link(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, SLOW);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    closers.push(async () => agent.destroy());
    const get = () =>
      new Promise<string>((resolve, reject) => {
        http
          .get(l.url, { agent }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
    const t0 = performance.now();
    expect(await get()).toBe('x'.repeat(1000));
    expect(await get()).toBe('x'.repeat(1000));
    const ms = performance.now() - t0;
    const { up, down, connections } = l.counters();
    expect(connections).toBe(1);
    expect(down).toBeGreaterThan(2000);
    expect(up).toBeGreaterThan(0);
    // A handshake, then one round trip per request.
    expect(ms).toBeGreaterThanOrEqual(3 * SLOW.rttMs - CLOCK_MS);
    l.resetCounters();
    expect(l.counters()).toEqual({ up: 0, down: 0, connections: 0 });
  });

  it('names the issue-13 links and their floor', () => {
    expect(LINKS.satellite).toMatchObject({ bitsPerSecond: 2_000_000, rttMs: 600 });
    expect(LINKS.cellular).toMatchObject({ bitsPerSecond: 20_000_000, rttMs: 100 });
    // 250,000 bytes = 2,000,000 bits: one second at 2 Mbit/s, plus one round trip.
    expect(linkFloorMs(LINKS.satellite, 250_000)).toBe(1600);
  });
});
