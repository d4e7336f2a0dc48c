/**
 * Service profiles ("dialects"): the two services a client talks to.
 *
 * - `spec`: our spec (`eo-imagery-api.md`), which our reference service follows exactly.
 * - `provider-v0`: the provider's published service (`real-service/openapi.json`, "stargate"
 *   v0.1.0), which differs in request shapes, enum values and in the reads that follow a create
 *   (`real-service/README.md`).
 *
 * Callers always write requests in ONE internal shape (the spec's schemas); a client translates
 * them to the profile's wire shape at the edge (`toWireBody`) after checking them against the
 * profile's rules (`clientRequestSchema`). Values of fields the spec leaves open (recurrence,
 * delivery speed) are never rejected locally: a value the profile does not list is a warning
 * (`requestWarnings`), and the service decides.
 */
import { z } from 'zod';
import type { EndpointDef, EndpointId } from './endpoints';
import type { ExtensionEndpointId } from './extensions';
import { endpoints } from './endpoints';
import {
  FEASIBILITY_STATUSES,
  ORDER_ITEM_STATUSES,
  PROVIDER_FEASIBILITY_STATUSES,
  PROVIDER_ORDER_ITEM_STATUSES,
} from './enums';
import { ASSET_TYPES, DELIVERY_SPEEDS, RECURRENCES } from './known-values';
import { ListOrderItemsQuery } from './requests/lists';
import { csvEnum } from './requests/params';
import {
  NON_RECURRING,
  OpenCreateOrderRequest,
  OpenOrderItemInput,
  ProviderCreateOrderRequest,
  ProviderOrderItemInput,
} from './requests/orders';
import { SatelliteSearchRequest } from './requests/satellite-search';
import { fieldOperationEndpoints } from './field-operations';

export const SERVICE_DIALECTS = ['spec', 'provider-v0'] as const;
export const ServiceDialect = z.enum(SERVICE_DIALECTS);
export type ServiceDialect = z.infer<typeof ServiceDialect>;
/** No cheap honest probe tells the two apart (see the api-client README): `spec` unless chosen. */
export const DEFAULT_SERVICE_DIALECT: ServiceDialect = 'spec';

export interface ServiceProfile {
  readonly dialect: ServiceDialect;
  /** One line for settings screens and `--help`. */
  readonly label: string;
  /** The values this service knows, for forms and warnings (2.14 leaves them open). */
  readonly recurrences: readonly string[];
  readonly deliverySpeeds: readonly string[];
  readonly orderItemStatuses: readonly string[];
  readonly feasibilityStatuses: readonly string[];
  readonly assetTypes: readonly string[];
  /**
   * Asset types a visualization is made from: what the outbox's `local:<id>#scenes` picks among
   * a queued AOI's assets once the service has produced them.
   */
  readonly sourceAssetTypes: readonly string[];
  /**
   * Data providers an AOI's `provider` names, as the service documents them (ours leaves it
   * open: the providers of its satellites' collections, `GET /v0/satellites`, are the values).
   */
  readonly aoiProviders: readonly string[];
  /** Does an order item need `usecase`. */
  readonly usecaseRequired: boolean;
  /**
   * How a created job, delivery or visualization is read back: our extension reads
   * (`extensions.ts`), or the provider's own reads (`providerReadEndpoints`).
   */
  readonly readBacks: 'extensions' | 'provider-v0';
  /**
   * Does satellite search page by `skip`. The provider's has no `skip`: one request answers up to
   * its `limit`, so a pager asks once and says how the pass ended.
   */
  readonly satelliteSearchSkip: boolean;
}

export const SERVICE_PROFILES: Readonly<Record<ServiceDialect, ServiceProfile>> = {
  spec: {
    dialect: 'spec',
    label: 'our spec (the reference service)',
    recurrences: RECURRENCES,
    deliverySpeeds: DELIVERY_SPEEDS,
    orderItemStatuses: ORDER_ITEM_STATUSES,
    feasibilityStatuses: FEASIBILITY_STATUSES,
    assetTypes: ASSET_TYPES,
    sourceAssetTypes: ['scene'],
    aoiProviders: [],
    usecaseRequired: false,
    readBacks: 'extensions',
    satelliteSearchSkip: true,
  },
  'provider-v0': {
    dialect: 'provider-v0',
    label: "the provider's service (stargate v0)",
    recurrences: ['ONCE', 'MONTHLY', 'BIMONTHLY', 'QUARTERLY', 'NOT_APPLICABLE'],
    deliverySpeeds: ['STANDARD', 'NOT_APPLICABLE'],
    orderItemStatuses: PROVIDER_ORDER_ITEM_STATUSES,
    feasibilityStatuses: PROVIDER_FEASIBILITY_STATUSES,
    assetTypes: ['mosaic', 'stac_item', 'visualization'],
    // A visualization is computed over the AOI's imagery: its mosaics and STAC items (never over
    // another visualization's output).
    sourceAssetTypes: ['mosaic', 'stac_item'],
    // `pixxel`: the provider's own satellites; `planetary`: open data (Landsat, Sentinel...).
    aoiProviders: ['pixxel', 'planetary'],
    usecaseRequired: true,
    readBacks: 'provider-v0',
    satelliteSearchSkip: false,
  },
};

export function serviceProfile(dialect: ServiceDialect): ServiceProfile {
  return SERVICE_PROFILES[dialect];
}

/** `'provider-v0'` -> the dialect; anything else -> a message naming the choices. */
export function parseServiceDialect(value: string): ServiceDialect {
  const r = ServiceDialect.safeParse(value.trim());
  if (r.success) return r.data;
  throw new Error(`unknown service dialect '${value}': use ${SERVICE_DIALECTS.join(' or ')}`);
}

// ---------------------------------------------------------------------------------------------
// Client-side request rules per profile

const issue = (ctx: z.RefinementCtx, path: (string | number)[], message: string) =>
  ctx.addIssue({ code: 'custom', path, message });

/**
 * The provider's satellite search: `start_date`, `end_date` and `geometry` required, no `skip`
 * (it has no paging: ask for up to 10 000 results with `limit`), filters with both bounds.
 */
const ProviderSatelliteSearchRequest = SatelliteSearchRequest.superRefine((r, ctx) => {
  for (const f of ['start_date', 'end_date', 'geometry'] as const) {
    if (r[f] === undefined) issue(ctx, [f], `${f} is required by this service`);
  }
  if (r.skip > 0) {
    issue(ctx, ['skip'], 'this service has no skip: ask for up to 10000 results with limit');
  }
  r.filters?.forEach((f, n) => {
    if (f.min === undefined || f.max === undefined) {
      issue(ctx, ['filters', n], 'this service needs both min and max in a filter');
    }
  });
});

type Overrides = Partial<Record<EndpointId, { body?: z.ZodType; query?: z.ZodType }>>;
const CLIENT_OVERRIDES: Readonly<Record<ServiceDialect, Overrides>> = {
  spec: { createOrder: { body: OpenCreateOrderRequest } },
  'provider-v0': {
    createOrder: { body: ProviderCreateOrderRequest },
    searchSatelliteImages: { body: ProviderSatelliteSearchRequest },
    // Filtering order items by the provider's own statuses (FULFILLED, ...).
    listOrderItems: {
      query: ListOrderItemsQuery.extend({
        status: csvEnum(PROVIDER_ORDER_ITEM_STATUSES).optional(),
      }),
    },
  },
};

/** The schema a client checks a request's body or query with, before sending it. */
export function clientRequestSchema(
  dialect: ServiceDialect,
  id: EndpointId,
  where: 'body' | 'query',
): z.ZodType | undefined {
  const def = endpoints[id] as EndpointDef;
  return CLIENT_OVERRIDES[dialect][id]?.[where] ?? def[where];
}

/** One order item as a client checks it for the profile (forms validate with it as you type). */
export function clientOrderItemSchema(
  dialect: ServiceDialect,
): typeof OpenOrderItemInput | typeof ProviderOrderItemInput {
  return dialect === 'provider-v0' ? ProviderOrderItemInput : OpenOrderItemInput;
}

/** The recurrence values of a profile that do recur (a form's choices for a recurring item). */
export function recurringChoices(dialect: ServiceDialect): string[] {
  return SERVICE_PROFILES[dialect].recurrences.filter((r) => !NON_RECURRING.has(r));
}

export interface RequestWarning {
  readonly path: string;
  readonly message: string;
}

/** Open values (recurrence, delivery speed) the profile does not list: warned, still sent. */
export function requestWarnings(
  dialect: ServiceDialect,
  id: EndpointId,
  body: unknown,
): RequestWarning[] {
  if (id !== 'createOrder' || !isRecord(body) || !Array.isArray(body.order_items)) return [];
  const profile = SERVICE_PROFILES[dialect];
  const warnings: RequestWarning[] = [];
  body.order_items.forEach((item: unknown, n) => {
    if (!isRecord(item)) return;
    const check = (field: string, known: readonly string[]) => {
      const v = item[field];
      if (typeof v === 'string' && !known.includes(v)) {
        warnings.push({
          path: `order_items.${n}.${field}`,
          message: `${v} is not a ${field} ${profile.label} lists (${known.join(', ')}); sent anyway`,
        });
      }
    };
    check('recurrence', profile.recurrences);
    check('delivery_speed', profile.deliverySpeeds);
  });
  return warnings;
}

// ---------------------------------------------------------------------------------------------
// Wire shapes

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The internal request body in the profile's wire shape. `spec` sends it unchanged; for
 * `provider-v0`: satellite search `satellite` -> `satellites: [satellite]` without `skip`;
 * catalog `sort_by` `{field, direction}` -> `{ [field]: 'ASC' | 'DESC' }`; each delivery, and a
 * catalog download, carries both id lists (the unused one empty); an index create has no `type`.
 */
export function toWireBody(
  dialect: ServiceDialect,
  id: EndpointId | ExtensionEndpointId,
  body: unknown,
): unknown {
  if (dialect === 'spec' || !isRecord(body)) return body;
  switch (id) {
    case 'searchSatelliteImages': {
      const { satellite, skip: _skip, ...rest } = body;
      return satellite === undefined ? rest : { ...rest, satellites: [satellite] };
    }
    case 'searchCatalogs': {
      if (!Array.isArray(body.sort_by)) return body;
      const sortBy = body.sort_by.map((s: unknown) => {
        if (!isRecord(s) || typeof s.field !== 'string') return s;
        const dir = typeof s.direction === 'string' ? s.direction : 'asc';
        return { [s.field]: dir.toUpperCase() };
      });
      return { ...body, sort_by: sortBy };
    }
    case 'createDeliveries': {
      if (!Array.isArray(body.deliveries)) return body;
      const deliveries = body.deliveries.map((d: unknown) =>
        isRecord(d)
          ? { ...d, catalog_ids: d.catalog_ids ?? [], order_item_ids: d.order_item_ids ?? [] }
          : d,
      );
      return { ...body, deliveries };
    }
    case 'createIndex': {
      const { type: _type, ...rest } = body;
      return rest;
    }
    // `clerk.DownloadRequest` requires both lists.
    case 'createCatalogDownload':
      return {
        ...body,
        catalog_ids: body.catalog_ids ?? [],
        order_item_ids: body.order_item_ids ?? [],
      };
    default:
      return body;
  }
}

// ---------------------------------------------------------------------------------------------
// Read-backs of the provider's service (not in our spec, not served by our service)

/** The provider's reads a client follows its creates with (`field-operations.ts`). */
export const providerReadEndpoints = {
  getWorkflowJob: fieldOperationEndpoints.getWorkflowJob,
  listDeliveries: fieldOperationEndpoints.listDeliveries,
  listVisualizations: fieldOperationEndpoints.listVisualizations,
} as const satisfies Record<string, EndpointDef>;

export type ProviderReadEndpointId = keyof typeof providerReadEndpoints;
