/**
 * From a method call to an HTTP request: which argument is what (path parameter, query, body),
 * client-side validation with the domain request schemas, and URL encoding.
 */
import {
  clientRequestSchema,
  endpoints,
  fillPath,
  formatIssuePath,
  requestWarnings,
  toWireBody,
  type EndpointId,
  type EndpointKind,
  type EndpointMethod,
  type RequestWarning,
  type ServiceDialect,
} from '@eo/domain';
import type { z } from 'zod';
import { EoValidationError } from './errors';
import type { CallOptions } from './options';
import type { AnyEndpointId } from './types';

type Where = 'params' | 'query' | 'body';

/** A request ready to send. `body` is the caller's input as given (the server applies defaults). */
export interface PreparedRequest {
  readonly endpoint: AnyEndpointId;
  readonly method: EndpointMethod;
  readonly kind: EndpointKind;
  /** Path with query string, e.g. `/v0/aois/a%2Fb/assets?limit=5`. */
  readonly path: string;
  readonly body: string | undefined;
  /** Open values the service profile does not list (sent anyway; see `requestWarnings`). */
  readonly warnings?: readonly RequestWarning[] | undefined;
}

export interface RequestInput {
  readonly params?: Record<string, string> | undefined;
  readonly query?: object | undefined;
  readonly body?: unknown;
  /**
   * A path and query the service linked to (a `next` link of the same endpoint, already checked
   * to be same-origin), sent as is instead of `query`: its query is the service's, not validated.
   */
  readonly link?: string | undefined;
}

interface ArgLayout {
  /** Name of the single path parameter, when the path has one (`aoi_id`, `cid`, `workflow_id`). */
  readonly pathParam: string | undefined;
  /** What the data argument is. */
  readonly data: 'query' | 'body' | undefined;
}

/** Derived from the table once: a body that accepts `undefined` is "no body" (create job). */
const layouts = new Map<EndpointId, ArgLayout>();
export function argLayout(id: EndpointId): ArgLayout {
  let l = layouts.get(id);
  if (!l) {
    const def = endpoints[id] as { path: string; body?: z.ZodType; query?: z.ZodType };
    const pathParam = /:([a-z_]+)/.exec(def.path)?.[1];
    const bodyIsData = def.body !== undefined && !def.body.safeParse(undefined).success;
    l = { pathParam, data: bodyIsData ? 'body' : def.query ? 'query' : undefined };
    layouts.set(id, l);
  }
  return l;
}

/** Splits `(pathParam?, data?, options?)` as `MethodArgs` describes. */
export function splitArgs(
  id: EndpointId,
  args: readonly unknown[],
): { input: RequestInput; options: CallOptions | undefined } {
  const layout = argLayout(id);
  let i = 0;
  const input: { params?: Record<string, string>; query?: object; body?: unknown } = {};
  if (layout.pathParam) input.params = { [layout.pathParam]: args[i++] as string };
  if (layout.data === 'query') input.query = args[i++] as object | undefined;
  else if (layout.data === 'body') input.body = args[i++];
  return { input, options: args[i] as CallOptions | undefined };
}

/** One query value on the wire: lists comma-separated, each element encoded on its own. */
function encodeValue(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => encodeURIComponent(String(x))).join(',');
  return encodeURIComponent(String(v));
}

export function encodeQuery(query: object | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeValue(v)}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function validate(
  id: EndpointId,
  input: RequestInput,
  bodyToSend: unknown,
  dialect: ServiceDialect,
): EoValidationError | undefined {
  const def = endpoints[id] as { params?: z.ZodType };
  const details: EoValidationError['details'] = [];
  const check = (schema: z.ZodType | undefined, value: unknown, where: Where) => {
    if (!schema) return;
    const r = schema.safeParse(value);
    if (!r.success) {
      for (const issue of r.error.issues) {
        details.push({ path: formatIssuePath(issue.path), message: issue.message, in: where });
      }
    }
  };
  check(def.params, input.params ?? {}, 'params');
  if (input.link === undefined)
    check(clientRequestSchema(dialect, id, 'query'), input.query ?? {}, 'query');
  check(clientRequestSchema(dialect, id, 'body'), bodyToSend, 'body');
  if (details.length === 0) return undefined;
  const first = details[0]!;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return new EoValidationError({
    message: `Invalid ${first.in} for ${id}: ${first.path ? `${first.path}: ` : ''}${first.message}${more}`,
    endpoint: id,
    method: endpoints[id].method,
    details,
    attempts: 0,
  });
}

/**
 * Validates (unless told not to) against the service profile's rules and encodes in its wire
 * shape (`dialect.ts` in @eo/domain); throws EoValidationError before anything is sent.
 */
export function prepareRequest(
  id: EndpointId,
  input: RequestInput,
  validateInputs: boolean,
  dialect: ServiceDialect = 'spec',
): PreparedRequest {
  const def = endpoints[id];
  const layout = argLayout(id);
  // A search with every field optional still needs a JSON body: `{}` when none is given.
  const body = layout.data === 'body' ? (input.body ?? {}) : undefined;
  if (validateInputs) {
    const err = validate(id, input, body, dialect);
    if (err) throw err;
  }
  let path: string;
  try {
    path = fillPath(def.path, input.params ?? {});
  } catch (e) {
    throw new EoValidationError({
      message: `Invalid params for ${id}: ${(e as Error).message}`,
      endpoint: id,
      method: def.method,
      details: [{ path: layout.pathParam ?? '', message: 'must not be empty', in: 'params' }],
    });
  }
  return {
    endpoint: id,
    method: def.method,
    kind: def.kind,
    path: input.link ?? path + encodeQuery(input.query),
    body: body === undefined ? undefined : JSON.stringify(toWireBody(dialect, id, body)),
    warnings: requestWarnings(dialect, id, body),
  };
}
