/**
 * `createEoClient`: one method per endpoint of the domain table, plus pagers. Each call:
 * split arguments -> validate and encode -> transport (retries, timeouts, concurrency) ->
 * decode (schema, drift). The API key only ever lives in the transport.
 */
import {
  ENDPOINT_IDS,
  serviceProfile,
  type EndpointId,
  type ServiceDialect,
  type ServiceProfile,
} from '@eo/domain';
import type { Capabilities } from './capabilities';
import { Decoder } from './decode';
import { redactValue } from './errors';
import { makeDownloadCalls, type DownloadCalls } from './downloads';
import { makeExtensionReads, type ExtensionReads } from './extensions';
import { makeIndexPng, type IndexPngCall } from './index-png';
import { resolveOptions, type CallOptions, type EoClientOptions } from './options';
import { makePagers, type Pagers, type Send } from './pages';
import { prepareRequest, splitArgs, type RequestInput } from './request';
import { parseHttpDate } from './retry';
import { Transport } from './transport';
import type { EndpointMethods, ResponseOf } from './types';

export interface EoClient extends EndpointMethods {
  /** Async iterators of pages; see `Page` and `allItems`. */
  readonly pages: Pagers;
  /**
   * Re-reads of a created job, delivery or visualization, the way the service profile offers
   * them (our extension reads, or the provider's reads); `null` where a service has none (404).
   */
  readonly extensions: ExtensionReads;
  /**
   * The provider's download operations (catalog records or order items, AOI assets), in the
   * profile's shapes; our service offers them as extensions at the same paths.
   */
  readonly downloads: DownloadCalls;
  /**
   * The index map of a visualization for one date (PNG bytes and the legend in its headers):
   * `POST /v0/aois/{aoi_id}/visualizations/{visualization_id}/png`, from the provider's real
   * service (not in our spec). A refusal comes back as its status, never thrown.
   */
  readonly indexPng: IndexPngCall;
  /** The service profile this client speaks (`dialect` option): wire shapes, values, reads. */
  readonly dialect: ServiceDialect;
  readonly profile: ServiceProfile;
  /** Any endpoint by id, with explicit `params` / `query` / `body`. */
  request<Id extends EndpointId>(
    id: Id,
    input?: RequestInput,
    options?: CallOptions,
  ): Promise<ResponseOf<Id>>;
  /** Requests holding a concurrency slot right now. */
  readonly inFlight: number;
  /** What the service said about itself so far (`idempotencyKey`: honoured / unknown / ignored). */
  readonly capabilities: Capabilities;
  /** The service's URL as configured (no key in it). */
  readonly baseUrl: string;
  /** Never shows the key: `EoClient(http://host)`. */
  toString(): string;
}

export function createEoClient(options: EoClientOptions): EoClient {
  const opts = resolveOptions(options);
  const transport = new Transport(opts);
  const decoder = new Decoder(opts.onSchemaDrift, (body) => redactValue(body, transport.secrets));

  /** Sends a call; the body comes back undecoded so a pager can look ahead before decoding. */
  const send: Send = async (id, input, call) => {
    const req = prepareRequest(id, input, call?.validate ?? opts.validateRequests, opts.dialect);
    if (req.warnings?.length) {
      try {
        opts.onRequestWarning?.({ endpoint: id, warnings: req.warnings });
      } catch {
        // A reporting hook must never break a call.
      }
    }
    const res = await transport.send(req, call);
    const ctx = { endpoint: id, method: req.method, path: req.path, attempts: res.attempts };
    return {
      endpoint: id,
      json: res.json,
      path: req.path,
      timing: res.timing,
      serverDateMs: parseHttpDate(res.headers.get('date')),
      text: res.text,
      decode: () =>
        decoder.decode(id, res.json, res.text, res.status, ctx) as ResponseOf<typeof id>,
      decodeAsReceived: () =>
        decoder.read(id, res.json, res.text, res.status, ctx) as {
          value: ResponseOf<typeof id>;
          asReceived: boolean;
        },
    };
  };

  const invoke = async <Id extends EndpointId>(
    id: Id,
    input: RequestInput,
    call?: CallOptions,
  ): Promise<ResponseOf<Id>> => (await send(id, input, call)).decode() as ResponseOf<Id>;

  const methods = Object.fromEntries(
    ENDPOINT_IDS.map((id) => [
      id,
      (...args: unknown[]) => {
        const { input, options: call } = splitArgs(id, args);
        return invoke(id, input, call);
      },
    ]),
  ) as unknown as EndpointMethods;

  const client: EoClient = {
    ...methods,
    pages: makePagers(
      send,
      opts.baseUrl,
      serviceProfile(opts.dialect).satelliteSearchSkip,
      (endpoint, path, message) => {
        try {
          opts.onSchemaDrift?.({ endpoint, issues: [{ path, message }] });
        } catch {
          // A reporting hook must never break a call.
        }
      },
    ),
    extensions: makeExtensionReads(transport, opts.onSchemaDrift, opts.dialect),
    downloads: makeDownloadCalls(
      transport,
      opts.onSchemaDrift,
      opts.dialect,
      opts.validateRequests,
    ),
    indexPng: makeIndexPng(transport),
    dialect: opts.dialect,
    profile: serviceProfile(opts.dialect),
    request: (id, input = {}, call) => invoke(id, input, call),
    get inFlight() {
      return transport.inFlight;
    },
    capabilities: transport.capabilities,
    baseUrl: opts.baseUrl,
    toString: () => `EoClient(${opts.baseUrl})`,
  };
  // The options object holds the key: keep it out of enumerable properties and inspection.
  return Object.freeze(client);
}
