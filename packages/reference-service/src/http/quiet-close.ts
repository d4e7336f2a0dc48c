/**
 * Closing ends every connection as soon as it has nothing left to answer. Node's `server.close()`
 * (and Fastify's 'idle' connection closing) ends keep-alive connections that are between requests
 * at that moment, and no others:
 * - a connection opened that never sent a byte counts neither idle nor busy, and only
 *   `headersTimeout` (60 s) ends it; HTTP clients open such connections (a pool connecting
 *   ahead, a request aborted while its socket connected);
 * - a connection whose request was in flight stays open after its answer, until the client's
 *   keep-alive timeout (Fastify's `keepAliveTimeout` is 72 s, which clients honour).
 * Either held every shutdown for a minute. This counts the requests in flight per socket; once
 * closing starts, a socket with none is ended at once, a busy one as soon as its last answer is
 * done, and one accepted meanwhile (the server listens until every preClose hook is done) once
 * its answer is sent, or after a second without a request. An in-flight request still finishes
 * (that is the graceful part).
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Closing } from './closing';

/** How long a connection accepted while closing may take to send its request. */
const LATE_REQUEST_MS = 1_000;

export function installQuietClose(app: FastifyInstance, closing: Closing): void {
  const inFlight = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
    // Accepted while closing (the server listens until the preClose hooks are done): its request
    // is answered (503, errors.ts), but one that sends none within a second is ended, or it
    // would hold the close until `headersTimeout`.
    if (closing.started)
      socket.setTimeout(LATE_REQUEST_MS, () => {
        if (inFlight.get(socket) === 0) socket.destroy();
      });
  });
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (closing.started && left === 0) socket.destroySoon();
    });
  });
  // Closing starts in preClose, before Fastify closes the server: from then on new requests are
  // refused (errors.ts).
  closing.onStart(() => {
    for (const [socket, n] of inFlight) if (n === 0) socket.destroySoon();
  });
}
