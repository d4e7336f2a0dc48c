/**
 * Registers the spec's endpoints from the @eo/domain endpoint table, so the domain zod schemas
 * are the single validation layer: params, query and body are parsed with them (400 with field
 * paths on failure), the handler receives parsed values, and (in tests) the response is checked
 * against the domain response schema.
 *
 * Creates run synchronously inside one SQLite transaction, together with the Idempotency-Key
 * record, so a create and its stored response are committed together or not at all.
 */
import { createHash } from 'node:crypto';
import {
  endpoints,
  extensionEndpoints,
  type EndpointDef,
  type EndpointId,
  type Endpoints,
  type ExtensionEndpointId,
  type ExtensionEndpoints,
} from '@eo/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { makeAuthenticator, type Principal } from './auth';
import { BodyPool } from './body-pool';
import { markReusable } from './compression';
import { JsonParts } from './json-bytes';
import { ApiError } from './errors';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler of endpoint definition `D` receives: parsed params, query and body. */
export interface InputOf<D> {
  readonly principal: Principal;
  readonly params: Out<D extends { params: infer P } ? P : undefined>;
  readonly query: Out<D extends { query: infer Q } ? Q : undefined>;
  readonly body: Out<D extends { body: infer B } ? B : undefined>;
}
export type HandlerInput<Id extends EndpointId> = InputOf<Endpoints[Id]>;
/** What a handler returns: the response as the domain schema's input (what goes on the wire). */
export type HandlerOutput<Id extends EndpointId> = z.input<Endpoints[Id]['response']>;

/**
 * What a create handler returns for a request that must change nothing (an order's dry
 * run): the response is sent with `status`, anything the handler wrote is rolled back, and
 * it is not stored under the Idempotency-Key (the same key may later be used for real).
 */
export class WithoutEffects<T> {
  constructor(
    readonly body: T,
    readonly status: 200 | 201 = 200,
  ) {}
}

/**
 * What a read handler returns to send JSON it already has serialised (stored, pre-rendered
 * JSON, as text or UTF-8 bytes, or parts of it to join): sent as is with `application/json`,
 * and checked against the response schema like any other response when `validateResponses`
 * is on. Parts are joined into a Buffer lent for this one response (body-pool.ts). `reused`:
 * the same Buffer is sent again while unchanged (a cached page), so its compressed forms are
 * kept with it (compression.ts) instead of being made again for every request.
 */
export class RawJson {
  constructor(
    readonly json: string | Buffer | JsonParts,
    readonly options: { readonly reused?: boolean } = {},
  ) {}
}

type CreateId = {
  [K in EndpointId]: Endpoints[K]['kind'] extends 'create' ? K : never;
}[EndpointId];
type ReadId = Exclude<EndpointId, CreateId>;
type ExtensionCreateId = {
  [K in ExtensionEndpointId]: ExtensionEndpoints[K]['kind'] extends 'create' ? K : never;
}[ExtensionEndpointId];

const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,200}$/;

function parseInputs<Id extends EndpointId>(
  id: Id,
  request: FastifyRequest,
): Omit<HandlerInput<Id>, 'principal'> {
  return parseDefInputs(endpoints[id], request) as Omit<HandlerInput<Id>, 'principal'>;
}

function parseDefInputs(
  def: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  request: FastifyRequest,
): { params: unknown; query: unknown; body: unknown } {
  const parse = (
    schema: z.ZodType | undefined,
    value: unknown,
    where: 'params' | 'query' | 'body',
  ) => {
    if (!schema) return undefined;
    const r = schema.safeParse(value);
    if (!r.success) throw ApiError.validation(r.error, where);
    return r.data;
  };
  return {
    params: parse(def.params, request.params, 'params'),
    query: parse(def.query, request.query, 'query'),
    body: parse(def.body, request.body, 'body'),
  };
}

function checkResponse(ctx: AppContext, id: EndpointId, value: unknown): void {
  checkDefResponse(ctx, id, endpoints[id].response, value);
}

function checkDefResponse(ctx: AppContext, id: string, response: z.ZodType, value: unknown): void {
  if (!ctx.config.validateResponses) return;
  const r = response.safeParse(value);
  if (!r.success) {
    throw new Error(
      `response of ${id} breaks the domain schema: ${JSON.stringify(r.error.issues.slice(0, 5))}`,
    );
  }
}

/** Canonical JSON (sorted keys) so equal requests hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function makeRouter(app: FastifyInstance, ctx: AppContext) {
  const authenticate = makeAuthenticator(ctx.sqlite);
  const bodies = new BodyPool();
  const findKey = ctx.sqlite.prepare<
    [string, string],
    { endpoint: string; request_hash: string; status_code: number; response_json: string }
  >(
    'SELECT endpoint, request_hash, status_code, response_json FROM idempotency_keys WHERE org_id = ? AND key = ?',
  );
  const storeKey = ctx.sqlite.prepare(
    'INSERT INTO idempotency_keys (org_id, key, endpoint, request_hash, status_code, response_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );

  /** A read or search endpoint. The handler may be async. */
  function read<Id extends ReadId>(
    id: Id,
    handler: (
      input: HandlerInput<Id>,
    ) => HandlerOutput<Id> | RawJson | Promise<HandlerOutput<Id> | RawJson>,
  ) {
    const def = endpoints[id];
    app.route({
      method: def.method,
      url: def.path,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const principal = authenticate(request.headers.authorization);
        const input = { principal, ...parseInputs(id, request) } as HandlerInput<Id>;
        const result = await handler(input);
        if (result instanceof RawJson) {
          let json = result.json;
          if (json instanceof JsonParts) {
            json = json.bytes(bodies.take);
            bodies.returnWhenSent(reply.raw, json);
          } else if (result.options.reused && Buffer.isBuffer(json)) markReusable(json);
          if (ctx.config.validateResponses) checkResponse(ctx, id, JSON.parse(String(json)));
          return reply.code(def.status).type('application/json; charset=utf-8').send(json);
        }
        checkResponse(ctx, id, result);
        return reply.code(def.status).send(result);
      },
    });
  }

  /**
   * A create endpoint. The handler is synchronous: it runs inside one SQLite transaction
   * with the Idempotency-Key bookkeeping.
   */
  function create<Id extends CreateId>(
    id: Id,
    handler: (input: HandlerInput<Id>) => HandlerOutput<Id> | WithoutEffects<HandlerOutput<Id>>,
  ) {
    createRoute(id, endpoints[id], handler as (input: unknown) => unknown);
  }

  /** The route of a create, from the spec's table or the extensions' (same Idempotency-Key rules). */
  function createRoute(id: string, def: EndpointDef, handler: (input: unknown) => unknown) {
    const endpointName = `${def.method} ${def.path}`;
    /** Runs `fn` in one transaction; a `WithoutEffects` result rolls it back and is returned. */
    const inTransaction = <T>(fn: () => T): T | WithoutEffects<unknown> => {
      try {
        return ctx.sqlite.transaction(fn).immediate();
      } catch (err) {
        if (err instanceof WithoutEffects) return err;
        throw err;
      }
    };
    const runHandler = (input: unknown) => {
      const result = handler(input);
      if (result instanceof WithoutEffects) throw result;
      return result;
    };
    app.route({
      method: def.method,
      url: def.path,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const principal = authenticate(request.headers.authorization);
        const input = { principal, ...parseDefInputs(def, request) };
        const rawKey = request.headers['idempotency-key'];
        const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;

        if (key === undefined) {
          const result = inTransaction(() => runHandler(input));
          if (result instanceof WithoutEffects) {
            checkDefResponse(ctx, id, def.response, result.body);
            return reply.code(result.status).send(result.body);
          }
          checkDefResponse(ctx, id, def.response, result);
          return reply.code(def.status).send(result);
        }
        if (!IDEMPOTENCY_KEY_RE.test(key)) {
          throw new ApiError(
            400,
            'validation_failed',
            'Idempotency-Key must be 1 to 200 printable ASCII characters',
            [{ path: 'Idempotency-Key', message: 'must be 1 to 200 printable ASCII characters' }],
          );
        }
        const requestHash = createHash('sha256')
          .update(
            canonicalJson({
              params: request.params,
              query: request.query,
              body: request.body ?? null,
            }),
          )
          .digest('hex');
        const outcome = inTransaction((): { replayed: boolean; status: number; body: unknown } => {
          const previous = findKey.get(principal.orgId, key);
          if (previous) {
            if (previous.endpoint !== endpointName || previous.request_hash !== requestHash) {
              throw new ApiError(
                409,
                'idempotency_conflict',
                'This Idempotency-Key was already used with a different request; use a new key for a new request',
              );
            }
            return {
              replayed: true,
              status: previous.status_code,
              body: JSON.parse(previous.response_json),
            };
          }
          const result = runHandler(input);
          storeKey.run(
            principal.orgId,
            key,
            endpointName,
            requestHash,
            def.status,
            JSON.stringify(result),
            Date.now(),
          );
          return { replayed: false, status: def.status, body: result };
        });
        if (outcome instanceof WithoutEffects) {
          checkDefResponse(ctx, id, def.response, outcome.body);
          return reply.code(outcome.status).send(outcome.body);
        }
        if (!outcome.replayed) checkDefResponse(ctx, id, def.response, outcome.body);
        if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
        return reply.code(outcome.status).send(outcome.body);
      },
    });
  }

  /**
   * A create endpoint of `extensionEndpoints` (the provider's downloads): validated, run in one
   * transaction and replayed under its Idempotency-Key exactly like the spec's creates.
   */
  function createExtension<Id extends ExtensionCreateId>(
    id: Id,
    handler: (
      input: InputOf<ExtensionEndpoints[Id]>,
    ) => z.input<ExtensionEndpoints[Id]['response']>,
  ) {
    createRoute(id, extensionEndpoints[id], handler as (input: unknown) => unknown);
  }

  /**
   * A read endpoint of `extensionEndpoints` (@eo/domain extensions.ts): our additions beyond
   * the spec, validated the same way.
   */
  function readExtension<Id extends ExtensionEndpointId>(
    id: Id,
    handler: (
      input: InputOf<ExtensionEndpoints[Id]>,
    ) =>
      | z.input<ExtensionEndpoints[Id]['response']>
      | Promise<z.input<ExtensionEndpoints[Id]['response']>>,
  ) {
    const def = extensionEndpoints[id];
    app.route({
      method: def.method,
      url: def.path,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const principal = authenticate(request.headers.authorization);
        // `as EndpointDef`: a read with neither params nor query shares no key with the inputs.
        const inputs = parseDefInputs(def as EndpointDef, request);
        const input = { principal, ...inputs } as InputOf<ExtensionEndpoints[Id]>;
        const result = await handler(input);
        checkDefResponse(ctx, id, def.response, result);
        return reply.code(def.status).send(result);
      },
    });
  }

  return { read, create, readExtension, createExtension };
}

export type Router = ReturnType<typeof makeRouter>;
