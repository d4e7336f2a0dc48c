/**
 * The service's records as the screens read them: orders, order items, AOIs and their assets,
 * indices, and what this client created (visualizations, deliveries, jobs). Reads answer from
 * the local mirror (offline too); a quote and a status refresh ask the service. Wire shapes are
 * the domain's tolerant response schemas. No Node, no DOM: the renderer imports this file.
 */
import {
  Aoi,
  AoiStatus,
  AnyOrderItemStatus,
  Asset,
  Delivery,
  IndexMapInfo,
  IndexType,
  Job,
  OpenCreateOrderRequest,
  Order,
  OrderItem,
  OrderItemType,
  OrderStatus,
  Rfc3339,
  SpectralIndex,
  Visualization,
} from '@eo/domain';
import { z } from 'zod';
import { IndexMapPictureVariant } from '../../shared/quicklooks';
import { ExportedFile } from '../files/file-export';
import { id, none } from '../../shared/contract/fields';

/** Inclusive instants (RFC 3339); either end may be left open. */
export const TimeWindow = z
  .object({ from: Rfc3339.optional(), to: Rfc3339.optional() })
  .strict()
  .refine((w) => !w.from || !w.to || Date.parse(w.from) <= Date.parse(w.to), {
    message: 'from must not be after to',
    path: ['to'],
  });
export type TimeWindow = z.infer<typeof TimeWindow>;

export const OrdersQuery = z
  .object({
    /** These orders only (what a batch created, followed afterwards). */
    ids: z.array(id).max(1000).optional(),
    status: z.array(OrderStatus).optional(),
    created: TimeWindow.optional(),
  })
  .strict()
  .optional();
export type OrdersQuery = z.input<typeof OrdersQuery>;

export const OrderItemsQuery = z
  .object({
    orderIds: z.array(id).max(1000).optional(),
    status: z.array(AnyOrderItemStatus).optional(),
    type: z.array(OrderItemType).optional(),
    projectId: id.optional(),
    created: TimeWindow.optional(),
    /** Item area in km² (the spec's "area range"), inclusive. */
    areaKm2: z
      .object({ min: z.number().min(0).optional(), max: z.number().min(0).optional() })
      .strict()
      .optional(),
    /** Case-insensitive substring of the item's name. */
    text: z.string().max(200).optional(),
  })
  .strict()
  .optional();
export type OrderItemsQuery = z.input<typeof OrderItemsQuery>;

export const AoisQuery = z
  .object({
    status: z.array(AoiStatus).optional(),
    projectId: id.optional(),
    text: z.string().max(200).optional(),
  })
  .strict()
  .optional();
export type AoisQuery = z.input<typeof AoisQuery>;

export const IndicesQuery = z
  .object({ type: IndexType.optional(), satelliteId: id.optional() })
  .strict()
  .optional();
export type IndicesQuery = z.input<typeof IndicesQuery>;

/**
 * Values the forms offer: the service's reference lists (projects, bandsets, satellites with
 * their bands, workflows: read at each sync where the service has them) and the ids the mirror
 * and the outbox have seen. Choices, not limits where the spec allows other values: the service
 * decides.
 */
const LookupChoice = z.object({ id: z.string(), name: z.string().nullable() });
export const Lookups = z.object({
  projectIds: z.array(z.string()),
  bandsetIds: z.array(z.string()),
  workflowIds: z.array(z.string()),
  /** Listed ones first (with names), then ids only seen in records or the outbox. */
  projects: z.array(LookupChoice),
  bandsets: z.array(
    LookupChoice.extend({ satelliteId: z.string().nullable(), bands: z.array(z.string()) }),
  ),
  workflows: z.array(LookupChoice),
  /**
   * Satellites with their bands: the service's own list (`bandsListed`), or the bands mirrored
   * indices and AOIs use (a guess); `providers` of their collections, when listed.
   */
  satellites: z.array(
    LookupChoice.extend({
      bands: z.array(z.string()),
      bandsListed: z.boolean(),
      providers: z.array(z.string()),
      /** Its archive collections, when listed: what an archive search names with it. */
      collections: z.array(LookupChoice),
    }),
  ),
  /** Cloud locations (delivery `config`) that mirrored records and queued creates name. */
  cloudConfigs: z.array(z.string()),
  /** The service's delivery stores (`GET /v0/stores`): a delivery's `config` is a store id. */
  stores: z.array(
    LookupChoice.extend({ type: z.string().nullable(), bucket: z.string().nullable() }),
  ),
  /**
   * Ids the service itself gave (its reference list and its records, not the outbox), per kind;
   * empty where it gave no list. A form flags an id outside a non-empty one, with the nearest.
   */
  serviceIds: z.object({
    projects: z.array(z.string()),
    bandsets: z.array(z.string()),
    satellites: z.array(z.string()),
    workflows: z.array(z.string()),
  }),
});
export type Lookups = z.infer<typeof Lookups>;

/**
 * A mirrored index map of an AOI: the visualization and date it shows, the picture's variant for
 * the picture URL (`quicklookPath(variant, visualizationId)`, from the mirror: offline too) and
 * its legend (bounds, rescale, colormap, index).
 */
export const IndexMapView = z.object({
  visualizationId: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  variant: IndexMapPictureVariant,
  legend: IndexMapInfo,
});
export type IndexMapView = z.infer<typeof IndexMapView>;

/** A job's expected cost; `aoiCount`: the AOIs it was priced over, when the service says. */
export const JobEstimate = z.object({
  estimatedCost: z.number().int().nonnegative(),
  aoiCount: z.number().int().nonnegative().nullable(),
});
export type JobEstimate = z.infer<typeof JobEstimate>;

export const recordsMethods = {
  'orders.list': { input: OrdersQuery, output: z.array(Order) },
  'orderItems.list': { input: OrderItemsQuery, output: z.array(OrderItem) },
  /** Online only: the service's dry run (price, uplifts, feasibility); persists nothing. */
  'orders.quote': { input: OpenCreateOrderRequest, output: Order },
  'aois.list': { input: AoisQuery, output: z.array(Aoi) },
  'aois.assets': { input: z.object({ aoiId: id }).strict(), output: z.array(Asset) },
  /** The AOI's mirrored index maps (visualizations' index PNGs), newest date first. */
  'aois.indexMaps': { input: z.object({ aoiId: id }).strict(), output: z.array(IndexMapView) },
  'indices.list': { input: IndicesQuery, output: z.array(SpectralIndex) },
  /** Created by this client (the spec cannot list them), newest first. */
  'visualizations.list': { input: none, output: z.array(Visualization) },
  'deliveries.list': { input: none, output: z.array(Delivery) },
  'jobs.list': { input: none, output: z.array(Job) },
  /**
   * Online only: what a job of the workflow is expected to cost, in credits, over the project's
   * AOIs (`GET /v0/workflows/{id}/estimate`); null when the service has no estimate.
   */
  'jobs.estimate': {
    input: z.object({ workflowId: id, projectId: id.optional() }).strict(),
    output: JobEstimate.nullable(),
  },
  /**
   * Online only: a finished job's results as the service packages them (its
   * `PUT .../jobs/{id}/download`), read from the package's signed URL, to save as a file
   * (Electron: through the save dialog; browser mode: the page downloads it).
   */
  'jobs.results': { input: z.object({ jobId: id }).strict(), output: ExportedFile },
  /** Online: re-reads the status of unfinished visualizations, deliveries and jobs. */
  'created.refresh': {
    input: none,
    output: z.object({ updated: z.number().int().min(0) }),
  },
  'lookups.get': { input: none, output: Lookups },
} as const;

export const recordsEvents = {
  /** Mirrored records changed outside a sync (a create was sent, statuses re-read). */
  'records.changed': z.object({
    kinds: z.array(z.enum(['orders', 'aois', 'indices', 'visualizations', 'deliveries', 'jobs'])),
  }),
} as const;
