/**
 * "Newest 30 days held": the newest acquisition the mirror holds that matches every filter but
 * the dates (area, cloud, collections, …), read with one search of one row sorted newest first,
 * and the 30 days up to it. What the calendar presets cannot give on an archive whose scenes are
 * all older than a month.
 */
import { useBridge } from '../../stores/bridge-provider';
import { rangeUpTo, type DayRange } from './date-presets';
import { buildQuery, type CatalogFilters, type LonLatBox } from '../../stores/catalog-filters';

/** The range, or null when no scene held matches (or the other filters are not valid). */
export async function newestHeldRange(
  filters: CatalogFilters,
  viewBox: LonLatBox | null,
): Promise<DayRange | null> {
  const area =
    filters.area.kind === 'view' && viewBox
      ? { kind: 'view' as const, bbox: viewBox }
      : filters.area;
  const built = buildQuery({ ...filters, area, dateFrom: '', dateTo: '', sort: 'datetime-desc' });
  if (!built.ok) return null;
  const page = await useBridge().call('catalog.search', { ...built.query, limit: 1, offset: 0 });
  const newest = page.items[0]?.datetime;
  return newest ? rangeUpTo(newest) : null;
}
