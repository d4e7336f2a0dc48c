/**
 * `files.export`: records of the mirror (offline) as a field file, written by the backend with
 * `@eo/formats` (never in the renderer). In Electron, main saves it through a save dialog
 * (`savedTo`); in browser mode the page downloads the bytes. No Node, no DOM here.
 */
import { ExportFormat, LIMITS } from '@eo/domain';
import { z } from 'zod';
import { CatalogQuery } from '../catalog/contract';
import { id } from '../../shared/contract/fields';

const ids = z.array(id).min(1).max(LIMITS.maxIdsPerFilter);

/** What is exported: one feature per record (an order: one per order item). */
export const ExportSource = z.discriminatedUnion('kind', [
  /** Every match of a catalog search (the query's own limit and offset are not applied). */
  z.object({ kind: z.literal('catalog'), query: CatalogQuery }).strict(),
  /** These catalog records (the selection). */
  z.object({ kind: z.literal('catalogRecords'), ids }).strict(),
  /** The items of these orders (all orders when no ids), with their order's id and status. */
  z.object({ kind: z.literal('orders'), ids: ids.optional() }).strict(),
  /** These order items (all when no ids). */
  z.object({ kind: z.literal('orderItems'), ids: ids.optional() }).strict(),
  z.object({ kind: z.literal('aois'), ids: ids.optional() }).strict(),
  /** Each with the area it delivers (the catalog footprint or the order item's area). */
  z.object({ kind: z.literal('deliveries'), ids: ids.optional() }).strict(),
]);
export type ExportSource = z.input<typeof ExportSource>;
export type ExportSourceKind = ExportSource['kind'];

export const FileExportRequest = z
  .object({
    source: ExportSource,
    format: ExportFormat,
    /** CSV only: a WKT column of each geometry (default yes; `false` leaves it out). */
    wkt: z.boolean().optional(),
  })
  .strict()
  .refine((r) => r.wkt === undefined || r.format === 'csv', {
    message: 'wkt goes with the csv format',
    path: ['wkt'],
  });
export type FileExportRequest = z.input<typeof FileExportRequest>;

export const ExportedFile = z.object({
  /** A name to save it under ("eo-orders-20260525-1412.kmz"). */
  fileName: z.string(),
  mediaType: z.string(),
  /** Features written. */
  features: z.number().int().min(0),
  bytes: z.number().int().min(0),
  /** The file (empty once main saved it: the bytes do not travel on to the page). */
  base64: z.string(),
  /** What the format could not keep as the records have it (a Shapefile's cut names), in words. */
  notes: z.array(z.string()).optional(),
  /**
   * Electron: where main saved it, or null when the save dialog was cancelled. Absent in
   * browser mode: the page downloads `base64` itself.
   */
  savedTo: z.string().nullable().optional(),
});
export type ExportedFile = z.infer<typeof ExportedFile>;

/** The most features one export writes (a day's search results are far fewer). */
export const MAX_EXPORT_FEATURES = 100_000;
