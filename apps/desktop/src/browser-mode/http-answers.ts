/** How browser mode answers over HTTP: JSON, bytes, the status of a call's result, bounded bodies. */
import type http from 'node:http';
import type { CallResult } from '../shared/contract';

export function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

/** A binary answer: the value itself, not an envelope (JSON would spell out every byte). */
export function sendBytes(res: http.ServerResponse, bytes: Uint8Array): void {
  res.writeHead(200, {
    'Content-Type': 'application/octet-stream',
    'Cache-Control': 'no-store',
    'Content-Length': bytes.byteLength,
  });
  res.end(bytes);
}

export function statusOf(r: CallResult<unknown>): number {
  if (r.ok) return 200;
  switch (r.error.code) {
    case 'invalid_argument':
      return 400;
    case 'unknown_method':
      return 404;
    case 'internal':
      return 500;
    default:
      // busy, not_configured, offline, unauthorized (of the service): the app's state, not HTTP's.
      return 409;
  }
}

/** The request's body as text, or null when it passes `max` bytes (read to its end either way). */
export function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
