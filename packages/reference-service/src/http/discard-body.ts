/**
 * A request whose body is over the limit is answered 413 only after the rest of its body is
 * read and thrown away, up to a bound: a client that sends its whole body before it reads
 * (most do) otherwise finds the connection closed under it, and the 413 lost with it (the
 * server closing with unread bytes resets the connection). Past the bound, or if the body
 * stops arriving, the answer goes out anyway and the connection is closed.
 */
import type { IncomingMessage } from 'node:http';

/** Bytes of an oversized body read and discarded at most before answering (about 12 times the limit). */
export const MAX_DISCARDED_BODY_BYTES = 64 * 1024 * 1024;
/** Time spent discarding it at most (ms). */
export const MAX_DISCARD_MS = 10_000;

/** Reads and drops the rest of `req`'s body; true when it ended within the bounds. */
export function discardBody(
  req: IncomingMessage,
  maxBytes = MAX_DISCARDED_BODY_BYTES,
  maxMs = MAX_DISCARD_MS,
): Promise<boolean> {
  if (req.complete || req.destroyed) return Promise.resolve(req.complete);
  return new Promise((resolve) => {
    let seen = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onError);
      if (!ended) req.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), maxMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onError);
    req.resume();
  });
}
