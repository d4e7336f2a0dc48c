/**
 * Shutdown of the listening server: a connection that never sent a request must not hold it
 * (Node waits for one until `headersTimeout`, 60 s), nor one whose request was in flight (Node
 * leaves it open after its answer, until the client's keep-alive timeout: 72 s), while that
 * request still gets its answer. Raw sockets on 127.0.0.1, so the test controls exactly what each
 * connection sends. Both ways of listening: `startServer`, and the app's own `listen` (tests).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { startServer, type RunningServer } from '../server';
import { within } from './within';

let dataDir: string;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const options = { logLevel: false, workerTickMs: 0 } as const;

/** The app's own `listen`, as the tests listen. */
async function listen(app: FastifyInstance): Promise<RunningServer> {
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, close: () => app.close() };
}

const listening: Record<string, (dataDir: string) => Promise<RunningServer>> = {
  startServer: (dataDir) => startServer({ dataDir, ...options }),
  'buildApp, then listen': async (dataDir) => listen(await buildApp({ dataDir, ...options })),
};

function connect(url: string): Promise<net.Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.once('connect', () => resolve(socket)).once('error', reject);
    // A write racing the server's close may fail; the test asserts on what was read.
    socket.on('error', () => {});
  });
}

/** Everything the server sends on `socket` until it closes the connection. */
function readUntilClosed(socket: net.Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8').on('data', (c: string) => (text += c));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

describe.each(Object.keys(listening))('closing the server (%s)', (how) => {
  async function start(): Promise<RunningServer> {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-close-'));
    server = await listening[how]!(dataDir);
    return server;
  }

  it('ends a connection that never sent a request, instead of waiting 60 s for it', async () => {
    const s = await start();
    // The server may accept after our connect resolves: wait until it has the socket too.
    const accepted = new Promise<void>((r) => s.app.server.once('connection', () => r()));
    const silent = await connect(s.url);
    await within(10_000, 'the server accepting the connection', accepted);
    const closedByServer = readUntilClosed(silent);
    await within(10_000, 'server.close() resolving', s.close());
    expect(await within(10_000, 'the silent connection closing', closedByServer)).toBe('');
  });

  it('still answers a request that was in flight when closing began, then closes', async () => {
    const s = await start();
    const socket = await connect(s.url);
    const requestSeen = new Promise<void>((r) => s.app.server.once('request', () => r()));
    const answer = readUntilClosed(socket);
    // Headers and half the body: the request is in flight, waiting for the rest. A valid body,
    // so the answer keeps the connection alive as far as it says (an invalid one closes it).
    socket.write(
      'POST /v0/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\n\r\n{',
    );
    await within(10_000, "the server's request event", requestSeen);
    const closed = s.close();
    socket.write('}');
    await within(10_000, 'server.close() resolving', closed);
    const text = await within(10_000, 'the answer, then the connection closing', answer);
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text).not.toMatch(/^connection: close/im);
  });

  it('ends a keep-alive connection waiting between requests', async () => {
    const s = await start();
    const socket = await connect(s.url);
    const answer = readUntilClosed(socket);
    const firstAnswer = new Promise<void>((r) => socket.once('data', () => r()));
    socket.write('GET /v0/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await within(10_000, 'the first answer', firstAnswer);
    await within(10_000, 'server.close() resolving', s.close());
    expect(await within(10_000, 'the connection closing', answer)).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('closing the server, a connection accepted meanwhile', () => {
  it('is ended when it sends no request: the server listens until the preClose hooks are done', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-close-'));
    const app = await buildApp({ dataDir, ...options });
    let late: Promise<string> | undefined;
    // Runs after the app's own preClose hooks (registered before it), before the server closes.
    app.addHook('preClose', async () => {
      const accepted = new Promise<void>((r) => app.server.once('connection', () => r()));
      const socket = await connect(s.url);
      late = readUntilClosed(socket);
      await within(10_000, 'the server accepting the late connection', accepted);
    });
    const s = (server = await listen(app));
    await within(10_000, 'app.close() resolving', s.close());
    expect(await within(10_000, 'the late connection closing', late!)).toBe('');
  });
});
