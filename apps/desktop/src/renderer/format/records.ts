/**
 * Readable values of orders, order items and AOIs: the spec's date layouts other than ISO
 * (task dates DD-MM-YYYY, asset dates YYYY-MM-DD, AOI timestamps with microseconds) read with
 * the domain's codecs, amounts, areas, and `validation_errors` entries in plain words.
 */
import {
  assetDate,
  instantToDate,
  microTimestamp,
  taskDate,
  type CalendarDate,
  type Geometry,
  Geometry as GeometrySchema,
  type OrderItemValidationError,
} from '@eo/domain';
import { MISSING, formatLocalDateTime, type TimeFormatOptions } from './units';

type Maybe<T> = T | null | undefined;

function calendarDate(d: CalendarDate, locale?: string): string {
  // A calendar date has no zone: format the day itself, not an instant in some zone.
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(Date.UTC(d.year, d.month - 1, d.day));
}

/** Task start/end date "17-05-2024" -> "17 May 2024"; shown as given when unreadable. */
export function formatTaskDate(v: Maybe<string>, locale?: string): string {
  if (!v) return MISSING;
  const r = taskDate.tryParse(v);
  return r.ok ? calendarDate(r.value, locale) : v;
}

/** Asset date "2024-05-17" -> "17 May 2024". */
export function formatAssetDate(v: Maybe<string>, locale?: string): string {
  if (!v) return MISSING;
  const r = assetDate.tryParse(v);
  return r.ok ? calendarDate(r.value, locale) : v;
}

/** AOI / asset timestamp "2024-05-17 08:30:00.123456+00:00" in local time. */
export function formatMicroTimestamp(v: Maybe<string>, opts: TimeFormatOptions = {}): string {
  if (!v) return MISSING;
  const r = microTimestamp.tryParse(v);
  return r.ok ? formatLocalDateTime(instantToDate(r.value).toISOString(), opts) : v;
}

/**
 * The unit of every amount, shown with each one. Neither our spec nor the provider's names a
 * currency; the provider documents costs "in credits" (`../shared/spec/real-service/`), and
 * the reference service bills one token per unit (packages/reference-service/docs/choices-orders.md).
 */
export const AMOUNT_UNIT = 'credits';

const money = (v: number) =>
  v.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Amounts, always with their unit: "1,234.50 credits". */
export function formatAmount(v: Maybe<number>): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return MISSING;
  return `${money(v)} ${AMOUNT_UNIT}`;
}

/** A difference of amounts, signed: "+50.00 credits", "−12.25 credits". */
export function formatAmountChange(v: number): string {
  const sign = v > 0 ? '+' : v < 0 ? '−' : '±';
  return `${sign}${money(Math.abs(v))} ${AMOUNT_UNIT}`;
}

/**
 * An order as people name it: by its items' names ("North field, South field, …"), the id only
 * when no item has a name ("Order 3f2a9c1e").
 */
export function orderTitle(order: {
  id?: string | null;
  order_items?: ReadonlyArray<{ name?: string | null }> | null;
}): string {
  const names = (order.order_items ?? [])
    .map((i) => (typeof i.name === 'string' ? i.name.trim() : ''))
    .filter((n) => n !== '');
  if (names.length === 0) return `Order ${(order.id ?? '').slice(0, 8)}`.trim();
  return names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', ');
}

/** Square metres as km² and hectares: "1.25 km² (125 ha)". */
export function formatAreaSqM(v: Maybe<number>): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return MISSING;
  const km2 = (v / 1e6).toLocaleString(undefined, { maximumFractionDigits: 2 });
  const ha = (v / 1e4).toLocaleString(undefined, { maximumFractionDigits: 1 });
  return `${km2} km² (${ha} ha)`;
}

function plain(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * One `validation_errors` entry as a sentence. The spec leaves its structure open: the message
 * when there is one (with the field it concerns), else every member as "name: value".
 */
export function validationErrorText(e: OrderItemValidationError): string {
  const message = e['message'];
  const field = e['field'];
  if (typeof message === 'string' && message.trim()) {
    return typeof field === 'string' && field
      ? `${message} (${field.replace(/_/g, ' ')})`
      : message;
  }
  const parts = Object.entries(e).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${plain(v)}`);
  return parts.length ? parts.join(', ') : 'A problem without a description.';
}

/** Task / item / order codes such as PARTIALLY_COMPLETED or PARTIAL-REFUND, readable. */
export function formatCode(v: Maybe<string>): string {
  if (!v) return MISSING;
  const words = v.replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The geometries to draw for an order item: its `geometry` when present (a FeatureCollection
 * or a bare geometry), else the footprints of its `images`. Unreadable entries are skipped.
 */
export function itemGeometries(item: {
  geometry?: unknown;
  images?: ReadonlyArray<{ geometry?: unknown }> | null;
}): Geometry[] {
  const out: Geometry[] = [];
  const take = (g: unknown) => {
    const parsed = GeometrySchema.safeParse(g);
    if (parsed.success) out.push(parsed.data);
  };
  const g = item.geometry as { type?: string; features?: Array<{ geometry?: unknown }> } | null;
  if (g && g.type === 'FeatureCollection' && Array.isArray(g.features)) {
    for (const f of g.features) take(f?.geometry);
  } else if (g) {
    take(g);
  }
  if (out.length === 0) for (const image of item.images ?? []) take(image.geometry);
  return out;
}
