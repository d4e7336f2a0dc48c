/** Conversions between the service's stored instants (µs) and the spec's wire layouts. */
import {
  isoTimestamp,
  microTimestamp,
  taskDate,
  assetDate,
  calendarDateFromInstant,
  instantFromCalendarDate,
  type Instant,
} from '@eo/domain';

export const msToUs = (ms: number): Instant => Math.round(ms) * 1000;
/** ISO 8601 with Z and microseconds (orders, order items, catalog records, deliveries, jobs). */
export const toIso = (us: Instant): string =>
  isoTimestamp.format(us, { offset: 'Z', fractionDigits: 6 });
export const toIsoOrNull = (us: Instant | null | undefined): string | null =>
  us == null ? null : toIso(us);
/** `YYYY-MM-DD HH:MM:SS.ffffff+00:00` (AOIs, assets, visualizations, indices). */
export const toMicro = (us: Instant): string => microTimestamp.format(us, { fraction: true });
/** `DD-MM-YYYY` (tasks). */
export const toTaskDate = (us: Instant): string => taskDate.format(calendarDateFromInstant(us));
/** `YYYY-MM-DD` (assets). */
export const toAssetDate = (us: Instant): string => assetDate.format(calendarDateFromInstant(us));
export const dayStartUs = (us: Instant): Instant =>
  instantFromCalendarDate(calendarDateFromInstant(us));
