/**
 * What the client's local mirror (@eo/sync) pulls from the service, one name per list it pages,
 * in the order a full sync runs them: assets page the AOIs just mirrored, and catalog records
 * link to orders through the order items' tasks. Defined here, once, because the sync package,
 * the desktop's contract and its screens all name them.
 */
import { z } from 'zod';

export const SYNC_RESOURCES = [
  'orders',
  'orderItems',
  'aois',
  'assets',
  'indices',
  'catalogs',
] as const;
export const SyncResource = z.enum(SYNC_RESOURCES);
export type SyncResource = z.infer<typeof SyncResource>;
