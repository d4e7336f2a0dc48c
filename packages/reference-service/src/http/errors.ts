/**
 * One error shape for every failure: `{ error: { code, message, details? } }` (see
 * @eo/domain errors.ts). Handlers throw `ApiError`; everything else is mapped here so a client
 * mistake is never a 500 and a malformed body never crashes the process.
 */
import type { ErrorCode, ErrorDetail } from '@eo/domain';
import { zodErrorDetails } from '@eo/domain';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { discardBody } from './discard-body';
import type { Closing } from './closing';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Sent with the error (`retry-after` on a 503). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** 503 with `Retry-After`: the service has no room for this now, but will soon. */
  static busy(message: string, retryAfterS: number): ApiError {
    const after = String(Math.max(1, Math.ceil(retryAfterS)));
    return new ApiError(503, 'unavailable', message, undefined, { 'retry-after': after });
  }

  static validation(error: z.ZodError, where: 'body' | 'query' | 'params'): ApiError {
    const details = zodErrorDetails(error).map((d) => ({ ...d, in: where }));
    const first = details[0];
    const summary = first
      ? `${first.path ? `${first.path}: ` : ''}${first.message}`
      : 'invalid request';
    return new ApiError(400, 'validation_failed', `Invalid ${where}: ${summary}`, details);
  }

  static notFound(what: string, id: string): ApiError {
    return new ApiError(404, 'not_found', `${what} ${JSON.stringify(id)} was not found`);
  }

  static invalid(path: string, message: string): ApiError {
    return new ApiError(400, 'validation_failed', `${path}: ${message}`, [{ path, message }]);
  }

  toBody() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details && this.details.length > 0 ? { details: this.details } : {}),
      },
    };
  }
}

/** Fastify's own errors (body parsing, limits) as ApiErrors. */
function fromFastifyError(err: FastifyError): ApiError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'unsupported_media_type',
        'Request bodies must be JSON (Content-Type: application/json)',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'The request body is too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        400,
        'validation_failed',
        'The body is empty but Content-Type says JSON; send a JSON value or no Content-Type',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'validation_failed', 'Content-Length does not match the body');
    case 'FST_ERR_BAD_URL':
      return new ApiError(
        400,
        'validation_failed',
        'The path is not valid: a percent-encoded sequence is malformed or not UTF-8',
        [{ path: 'path', message: 'malformed percent-encoding', in: 'params' }],
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(
        414,
        'uri_too_long',
        `A path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters; no id is that long`,
      );
    default:
      break;
  }
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    // Fastify's parser also refuses prototype keys (`onProtoPoisoning: 'error'`), same error.
    return new ApiError(
      400,
      'validation_failed',
      'The body is not valid JSON, or it holds a "__proto__" key or a "constructor": {"prototype"} member, which are refused',
    );
  }
  if (err instanceof SyntaxError) {
    return new ApiError(400, 'validation_failed', `The body is not valid JSON: ${err.message}`);
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 404
        ? 'not_found'
        : status === 405
          ? 'method_not_allowed'
          : status === 429
            ? 'rate_limited'
            : 'validation_failed';
    return new ApiError(status, code, err.message);
  }
  return undefined;
}

/** Longest path parameter the router reads (Fastify's `maxParamLength`); longer ones are 414. */
export const MAX_PATH_PARAM_LENGTH = 100;

/**
 * Fastify's `frameworkErrors`: errors the router raises before any route runs (bad
 * percent-encoding, over-long path parameters). Without it Fastify writes its own body.
 */
export function frameworkErrors(
  err: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const apiError =
    fromFastifyError(err) ?? new ApiError(500, 'internal', 'Internal error; it has been logged');
  if (apiError.status >= 500) reply.log.error({ err }, 'framework error');
  void reply.code(apiError.status).send(apiError.toBody());
}

/**
 * Node's `clientError`: requests that never become requests (headers over 16 KB, malformed
 * HTTP, a request that did not arrive in time). Answered on the raw socket, in our shape.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(431, 'headers_too_large', 'The request headers are too large (16 KB at most)')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(408, 'request_timeout', 'The request did not arrive in time')
        : new ApiError(400, 'validation_failed', 'The request is not valid HTTP');
  if (socket.writable) {
    const body = JSON.stringify(apiError.toBody());
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

export function installErrorHandling(app: FastifyInstance, closing: Closing): void {
  // Fastify's own 503 while closing has its own body: ours answers instead (the factory
  // sets `return503OnClosing: false`), before any route touches the closing database.
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing.started) return;
    void reply.header('connection', 'close');
    throw new ApiError(503, 'unavailable', 'The service is shutting down; retry shortly');
  });

  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    const apiError = err instanceof ApiError ? err : fromFastifyError(err);
    if (apiError) {
      // Read the rest of an oversized body first (discard-body.ts): then the 413 arrives, and
      // the connection can stay open when all of it came.
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && (await discardBody(request.raw)))
        void reply.removeHeader('connection');
      if (apiError.headers) void reply.headers(apiError.headers);
      return reply.code(apiError.status).send(apiError.toBody());
    }
    request.log.error({ err }, 'unhandled error');
    return reply
      .code(500)
      .send(new ApiError(500, 'internal', 'Internal error; it has been logged').toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(
        new ApiError(
          404,
          'not_found',
          `No route ${request.method} ${request.url.split('?')[0]}`,
        ).toBody(),
      );
  });
}
