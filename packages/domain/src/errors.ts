/**
 * Error bodies. The spec does not show them (part 7); our service answers every failure with
 * one shape, `{ error: { code, message, details? } }`. A client must also cope with other
 * shapes (plain text, `{ message }`, `{ detail }`, empty), see `describeErrorBody`.
 */
import { z } from 'zod';

export const ERROR_CODES = [
  'validation_failed', // 400
  'unauthorized', // 401
  'forbidden', // 403
  'not_found', // 404
  'method_not_allowed', // 405
  'request_timeout', // 408: the request did not arrive in time
  'idempotency_conflict', // 409: same Idempotency-Key, different request
  'conflict', // 409
  'payload_too_large', // 413
  'range_not_satisfiable', // 416: a Range past the end of an asset file
  'uri_too_long', // 414: a path parameter longer than the service reads
  'unsupported_media_type', // 415
  'unprocessable', // 422: well-formed but not acceptable (e.g. expression uses unknown bands)
  'rate_limited', // 429
  'headers_too_large', // 431: request headers over the service's limit
  'internal', // 500
  'unavailable', // 503
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorDetail = z.looseObject({
  /** Dotted path of the offending field, e.g. `order_items.0.geometry.features`. */
  path: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ApiErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetail).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** `order_items.0.name` from a zod issue path. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => String(p)).join('.');
}

/** Field-level details from a zod error, with an optional prefix (`body`, `query`, ...). */
export function zodErrorDetails(error: z.ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: formatIssuePath(prefix ? [prefix, ...issue.path] : issue.path),
    message: issue.message,
  }));
}

/** One readable line from zod issues: `order_items.0.name: name is required; ...` */
export function summarizeDetails(details: readonly ErrorDetail[], max = 3): string {
  const shown = details.slice(0, max).map((d) => (d.path ? `${d.path}: ${d.message}` : d.message));
  const more = details.length > max ? ` (and ${details.length - max} more)` : '';
  return shown.join('; ') + more;
}

/**
 * Best-effort reading of any error body a service may send: ours, `{ message }`,
 * `{ detail }` (FastAPI), `{ error: "text" }`, plain text or nothing.
 */
export function describeErrorBody(body: unknown): {
  code?: string;
  message?: string;
  details?: ErrorDetail[];
} {
  const ours = ApiErrorBody.safeParse(body);
  if (ours.success) {
    const { code, message, details } = ours.data.error;
    return details ? { code, message, details } : { code, message };
  }
  if (typeof body === 'string') return body.trim() ? { message: body.trim().slice(0, 500) } : {};
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    const text = [o.message, o.detail, o.error, o.title].find((v) => typeof v === 'string') as
      string | undefined;
    const code = typeof o.code === 'string' ? o.code : undefined;
    const out: { code?: string; message?: string } = {};
    if (code) out.code = code;
    if (text) out.message = text;
    else if (Array.isArray(o.detail)) out.message = JSON.stringify(o.detail).slice(0, 500);
    return out;
  }
  return {};
}
