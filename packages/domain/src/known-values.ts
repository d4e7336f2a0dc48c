/**
 * Values for fields the spec leaves open (2.14: "not shown beyond the sample values").
 *
 * Response schemas accept any string for these fields, because another service may use other
 * values. Our reference service produces exactly these, and request schemas use the ones that
 * are inputs (delivery speed, recurrence). The spec's sample value is always included.
 */
export const DELIVERY_SPEEDS = ['STANDARD', 'PRIORITY', 'EXPRESS'] as const;
export type DeliverySpeed = (typeof DELIVERY_SPEEDS)[number];

export const RECURRENCES = ['ONCE', 'DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type Recurrence = (typeof RECURRENCES)[number];

export const IMAGE_TYPES = ['VNIR', 'PAN', 'MULTISPECTRAL', 'SWIR'] as const;

export const USECASES = [
  'agriculture',
  'forestry',
  'urban',
  'disaster',
  'maritime',
  'mining',
  'defence',
  'other',
] as const;

export const TASK_TYPES = ['ARCHIVE', 'TASKING'] as const;
export const TASK_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export const TASK_DELIVERY_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESSFUL', 'FAILED'] as const;
export const CATALOG_DELIVERY_STATUSES = ['SUCCESSFUL'] as const;
export const DELIVERY_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED'] as const;
export const ASSET_STATUSES = ['pending', 'running', 'success', 'failed'] as const;
export const ASSET_TYPES = ['mosaic', 'scene', 'index'] as const;
export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export const JOB_TASK_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED'] as const;

/**
 * Statuses after which a delivery, a job or a visualization no longer changes: ours (above, and
 * the visualization states of part 3) plus words other services commonly use. Case-insensitive.
 * A client stops re-reading a record once its status is final.
 */
const FINAL_STATUSES: ReadonlySet<string> = new Set([
  'success',
  'succeeded',
  'successful',
  'failed',
  'failure',
  'error',
  'partial_success',
  'cancelled',
  'canceled',
  'completed',
  'done',
]);
export function isFinalStatus(status: string | null | undefined): boolean {
  return typeof status === 'string' && FINAL_STATUSES.has(status.toLowerCase());
}
