/**
 * A body over the 5 MiB limit is answered 413 in our shape, not with a reset connection: a
 * client that writes its whole body before reading (a raw socket here, as curl without
 * `Expect` and most upload code do) must get to read the answer. Before, the service answered
 * while the body was still coming and closed: the client's writes failed and the 413 was lost.
 */
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { LIMITS } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discardBody, MAX_DISCARDED_BODY_BYTES } from '../http/discard-body';
import { createTestApp, type TestApp } from '../testing/harness';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t.close());

/**
 * Sends a POST of `bodyBytes` (declared, or chunked), writing all of it before reading, then
 * a second request on the same connection when `again`; resolves with what came back.
 */
function upload(
  bodyBytes: number,
  chunked: boolean,
  again = false,
): Promise<{ text: string; writeError: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let writeError: string | null = null;
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', (e) => (writeError ??= (e as NodeJS.ErrnoException).code ?? e.message));
    socket.on('close', () => resolve({ text, writeError }));
    socket.setTimeout(30_000, () => reject(new Error('no answer within 30 s')));
    const send = async () => {
      const head = [
        'POST /v0/indices HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: ${t.key}`,
        'Content-Type: application/json',
        chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bodyBytes}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      const piece = Buffer.alloc(1024 * 1024, 0x78);
      for (let sent = 0; sent < bodyBytes && !writeError; sent += piece.length) {
        const part = piece.subarray(0, Math.min(piece.length, bodyBytes - sent));
        const framed = chunked
          ? Buffer.concat([
              Buffer.from(`${part.length.toString(16)}\r\n`),
              part,
              Buffer.from('\r\n'),
            ])
          : part;
        if (!socket.write(framed)) await new Promise((r) => socket.once('drain', r));
      }
      if (chunked && !writeError) socket.write('0\r\n\r\n');
      if (again && !writeError)
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      else socket.end();
    };
    socket.on('connect', () => void send().catch(reject));
  });
}

describe('a body over the limit', () => {
  for (const chunked of [false, true])
    it(`is read to its end and answered 413, the connection kept (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      const r = await upload(20 * 1024 * 1024, chunked, true);
      expect(r.writeError).toBeNull();
      expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.text).toContain('"code":"payload_too_large"');
      // The same connection answers the next request.
      expect(r.text).toMatch(/HTTP\/1\.1 200 [^]*\{"ok":true\}$/);
    });

  it('is read up to a bound of bytes and of time only', async () => {
    expect(MAX_DISCARDED_BODY_BYTES).toBeGreaterThan(LIMITS.maxBodyBytes);
    // A stream standing in for the request: discardBody reads it and its `complete` flag only.
    const request = () => Object.assign(new PassThrough(), { complete: false });
    const asRequest = (s: PassThrough) => s as unknown as Parameters<typeof discardBody>[0];
    const small = request();
    const ended = discardBody(asRequest(small), 100, 60_000);
    small.end(Buffer.alloc(100));
    expect(await ended).toBe(true);
    const big = request();
    const over = discardBody(asRequest(big), 100, 60_000);
    big.write(Buffer.alloc(101));
    expect(await over).toBe(false);
    // A body that stops arriving: given up after the time bound.
    expect(await discardBody(asRequest(request()), 100, 50)).toBe(false);
  });
});
