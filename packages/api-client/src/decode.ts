/**
 * Response bodies through the tolerant domain schemas. A body that breaks its schema is reported
 * as schema drift and still returned when it is usable (its envelope is there: the list key holds
 * an array, or the resource has its id); an unusable body is an EoResponseError.
 */
import { endpoints, formatIssuePath, type EndpointId } from '@eo/domain';
import { z } from 'zod';
import { EoResponseError, type RequestContext } from './errors';
import { compileChecker, type Checker } from './compiled-validator';
import type { SchemaDriftEvent } from './options';

/** What makes a response usable, per endpoint. */
type Envelope =
  | { readonly list: string } // `{ <list>: [...] }`
  | { readonly id: string } // a resource with a non-empty string id
  | { readonly object: string }; // `{ <object>: {...} | [...] }` (satellite search items)

export const ENVELOPES: Readonly<Record<EndpointId, Envelope>> = {
  listOrderItems: { list: 'order_items' },
  listAoiAssets: { list: 'assets' },
  searchCatalogs: { list: 'catalogs' },
  listAois: { list: 'aois' },
  searchSatelliteImages: { object: 'items' },
  listIndices: { list: 'indices' },
  createIndex: { id: 'id' },
  createOrder: { id: 'id' },
  listOrders: { list: 'orders' },
  createVisualization: { id: 'id' },
  createDeliveries: { list: 'deliveries' },
  createAoi: { id: 'aoi_id' },
  createJob: { id: 'id' },
  listArchiveItems: { list: 'features' },
};

/** At most this many issues are reported per response; the rest are counted. */
const MAX_REPORTED_ISSUES = 100;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What arrived, in a few words: `missing`, `null`, `a number (42)`, `an object (keys: a, b)`. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array (${v.length} item${v.length === 1 ? '' : 's'})`;
  if (typeof v === 'object') {
    const keys = Object.keys(v);
    const shown = keys.slice(0, 8).join(', ') + (keys.length > 8 ? ', ...' : '');
    return keys.length === 0 ? 'an empty object' : `an object (keys: ${shown})`;
  }
  if (typeof v === 'string') {
    if (v === '') return 'an empty string';
    return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)})`;
  }
  return `a ${typeof v} (${String(v)})`;
}

/** `"orders" is missing (expected an array; the body has keys: ...)` or `... is a string (expected ...)`. */
function keyProblem(json: Record<string, unknown>, key: string, expected: string): string {
  const v = json[key];
  if (v === undefined) {
    const keys = Object.keys(json);
    const has =
      keys.length === 0
        ? 'the body is an empty object'
        : `the body has keys: ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', ...' : ''}`;
    return `"${key}" is missing (expected ${expected}; ${has})`;
  }
  return `"${key}" is ${describeValue(v)} (expected ${expected})`;
}

function usabilityProblem(env: Envelope, json: unknown): string | undefined {
  if (!isRecord(json)) return `expected a JSON object, got ${describeValue(json)}`;
  if ('list' in env) {
    return Array.isArray(json[env.list]) ? undefined : keyProblem(json, env.list, 'an array');
  }
  if ('id' in env) {
    const id = json[env.id];
    return typeof id === 'string' && id !== ''
      ? undefined
      : keyProblem(json, env.id, 'a non-empty string id');
  }
  // Satellite search items: a map, a FeatureCollection or (some services) a bare array.
  const o = json[env.object];
  return typeof o === 'object' && o !== null
    ? undefined
    : keyProblem(json, env.object, 'an object or an array');
}

/**
 * A numeric id in a create answer is unambiguous: it becomes its string (in place), and the
 * change is reported as drift. Returns the issue, when there was one.
 */
function coerceId(env: Envelope, json: unknown): { path: string; message: string } | undefined {
  if (!('id' in env) || !isRecord(json)) return undefined;
  const id = json[env.id];
  if (typeof id !== 'number' || !Number.isFinite(id)) return undefined;
  json[env.id] = String(id);
  return { path: env.id, message: `a number (${id}), used as the string id "${String(id)}"` };
}

/** The element schema of a list envelope, for salvaging the valid items of a drifted list. */
function itemSchema(schema: z.ZodType, key: string): z.ZodType | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const field = (schema.shape as Record<string, z.ZodType>)[key];
  return field instanceof z.ZodArray ? (field.element as z.ZodType) : undefined;
}

export function issuesOf(error: z.ZodError): Array<{ path: string; message: string }> {
  const all = error.issues.map((i) => ({ path: formatIssuePath(i.path), message: i.message }));
  if (all.length <= MAX_REPORTED_ISSUES) return all;
  const shown = all.slice(0, MAX_REPORTED_ISSUES);
  shown.push({ path: '', message: `and ${all.length - MAX_REPORTED_ISSUES} more issues` });
  return shown;
}

/**
 * Compiled checkers, shared by every client: the schemas are module singletons, and generated
 * functions compiled once stay hot in the JIT across clients.
 */
const checkers = new Map<EndpointId, Checker>();

export class Decoder {
  /** `redact` scrubs the API key from a body kept on an error. */
  constructor(
    private readonly onDrift: ((e: SchemaDriftEvent) => void) | undefined,
    private readonly redact: (body: unknown) => unknown = (b) => b,
  ) {}

  private checker(id: EndpointId): Checker {
    let c = checkers.get(id);
    if (!c) {
      c = compileChecker(endpoints[id].response);
      checkers.set(id, c);
    }
    return c;
  }

  /**
   * Parsed body; drift reported; EoResponseError when unusable. `json` is the parsed `text`,
   * owned by the caller and changed in place by the fast path.
   */
  decode(
    id: EndpointId,
    json: unknown,
    text: string,
    status: number,
    ctx: RequestContext,
  ): unknown {
    return this.read(id, json, text, status, ctx).value;
  }

  /**
   * `decode`, and whether the value is `json` exactly as parsed from `text`: the schema passed
   * it on the fast path without filling in a default, coercing an id or copying a part.
   */
  read(
    id: EndpointId,
    json: unknown,
    text: string,
    status: number,
    ctx: RequestContext,
  ): { value: unknown; asReceived: boolean } {
    const env = ENVELOPES[id];
    const schema = endpoints[id].response as z.ZodType;
    const coerced = coerceId(env, json);
    const problem = usabilityProblem(env, json);
    if (problem) {
      const r = schema.safeParse(json);
      throw new EoResponseError({
        ...ctx,
        status,
        message: `${ctx.method ?? ''} ${ctx.path ?? id}: unusable response: ${problem}`.trim(),
        issues: r.success ? [] : issuesOf(r.error),
        body: this.redact(json),
      });
    }
    // Fast path: a precompiled check that accepts exactly what the schema accepts, or defers.
    const fast = this.checker(id)(json);
    if (fast.ok) {
      if (coerced) this.report(id, [coerced]);
      return { value: fast.value, asReceived: !coerced && !fast.rewrote && fast.value === json };
    }
    // The fast path may have applied defaults before it gave up: zod gets an untouched copy.
    const pristine = JSON.parse(text) as Record<string, unknown>;
    coerceId(env, pristine);
    const r = schema.safeParse(pristine);
    if (r.success) {
      if (coerced) this.report(id, [coerced]);
      return { value: r.data, asReceived: false };
    }
    this.report(id, coerced ? [coerced, ...issuesOf(r.error)] : issuesOf(r.error));
    return { value: salvage(schema, env, pristine), asReceived: false };
  }

  private report(endpoint: EndpointId, issues: SchemaDriftEvent['issues']): void {
    try {
      this.onDrift?.({ endpoint, issues });
    } catch {
      // A reporting hook must never break a call.
    }
  }
}

/**
 * A drifted but usable body: items of a list that pass their schema are returned parsed
 * (defaults applied), the others as received; every other field as received.
 */
function salvage(schema: z.ZodType, env: Envelope, json: Record<string, unknown>): unknown {
  if (!('list' in env)) return json;
  const element = itemSchema(schema, env.list);
  const items = json[env.list] as unknown[];
  if (!element) return json;
  return {
    ...json,
    [env.list]: items.map((item) => {
      const r = element.safeParse(item);
      return r.success ? r.data : item;
    }),
  };
}
