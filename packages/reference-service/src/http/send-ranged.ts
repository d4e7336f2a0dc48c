/**
 * Bytes held in memory answered whole or in the one range asked for: `If-Range` with another
 * validator than `etag` gets the whole body (the client's copy is stale), a range past the end
 * is a 416 naming the size. Headers such as ETag and caching are the caller's.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import { parseRange } from './ranges';

export function sendRanged(
  request: FastifyRequest,
  reply: FastifyReply,
  bytes: Uint8Array,
  etag: string,
): FastifyReply {
  const ifRange = request.headers['if-range'];
  const range =
    ifRange === undefined || ifRange === etag
      ? parseRange(request.headers.range, bytes.length)
      : ({ kind: 'whole' } as const);
  if (range.kind === 'unsatisfiable') {
    void reply.header('content-range', `bytes */${bytes.length}`);
    throw new ApiError(416, 'range_not_satisfiable', `The file has ${bytes.length} bytes`);
  }
  if (range.kind === 'part') {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`)
      .send(bytes.subarray(range.start, range.end + 1));
  }
  return reply.send(bytes);
}
