/**
 * One error shape for every failure: `{ error: { code, message, details? } }` (see
 * @eo/domain errors.ts). Handlers throw `ApiError`; everything else is mapped here so a client
 * mistake is never a 500 and a malformed body never crashes the process.
 */
import type { ErrorCode, ErrorDetail } from '@eo/domain';
import { zodErrorDetails } from '@eo/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'ApiError';
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
    default:
      break;
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
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

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const apiError = err instanceof ApiError ? err : fromFastifyError(err);
    if (apiError) {
      void reply.code(apiError.status).send(apiError.toBody());
      return;
    }
    request.log.error({ err }, 'unhandled error');
    void reply
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
