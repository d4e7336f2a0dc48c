/**
 * Every answer of the service, the framework's and Node's own included, is in our error shape
 * `{ error: { code, message, details? } }` (README "Errors"). These requests were answered in
 * Fastify's shape (`{ error: "Bad Request", code: "FST_ERR_...", statusCode }`) or in Node's.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, type TestApp } from '../testing/harness';
import { expectOurShape } from './error-body';

/** Sends raw bytes and reads until the server closes; status line, headers and body. */
function raw(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e) => (chunks.length > 0 ? undefined : reject(e)));
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = all.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
    socket.write(text);
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ scenes: 5 });
});
afterAll(async () => t.close());

describe('framework answers in our error shape', () => {
  it('400 validation_failed for malformed percent-encoding in a path', async () => {
    for (const url of ['/v0/aois/%E0%A4%A/assets', '/v0/archives/collections/%ZZ/items']) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(expectOurShape(res.json(), url).code).toBe('validation_failed');
    }
  });

  it('414 uri_too_long for a path parameter over 100 characters', async () => {
    const res = await t.call({ method: 'GET', url: `/v0/aois/${'a'.repeat(101)}/assets` });
    expect(res.statusCode).toBe(414);
    expect(expectOurShape(res.json(), '414').code).toBe('uri_too_long');
  });

  it('431 headers_too_large and 400 for broken HTTP, on a real socket', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const big = await raw(
      port,
      `GET /v0/indices HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big.status).toBe(431);
    expect(expectOurShape(JSON.parse(big.body), '431').code).toBe('headers_too_large');
    const broken = await raw(port, 'GET /v0/indices HTTP/1.1\r\nHost x\r\n\r\n');
    expect(broken.status).toBe(400);
    expect(expectOurShape(JSON.parse(broken.body), 'broken').code).toBe('validation_failed');
  });
});

describe('bodies with prototype keys', () => {
  it('400 naming the refused key rather than calling valid JSON invalid', async () => {
    for (const payload of [
      '{"query":{"__proto__":{"eq":1}}}',
      '{"__proto__":{"limit":1}}',
      '{"query":{"constructor":{"prototype":{"eq":1}}}}',
    ]) {
      const res = await t.call({
        method: 'POST',
        url: '/v0/catalogs/search',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(expectOurShape(res.json(), payload).message).toContain('__proto__');
    }
  });
});

describe('while closing', () => {
  it('503 unavailable in our shape for a request arriving during shutdown', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-server-closing-'));
    const app = await buildApp({ dataDir, logLevel: false, workerTickMs: 0, stepDelayMs: 0 });
    let during: { status: number; body: string } | undefined;
    // Sent from inside shutdown, after Fastify marked itself closing and before sockets close.
    app.addHook('preClose', async () => {
      const port = (app.server.address() as net.AddressInfo).port;
      during = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(during?.status).toBe(503);
    expect(expectOurShape(JSON.parse(during!.body), '503').code).toBe('unavailable');
  });
});
