/**
 * What the catalog map says about the footprint under the pointer: its date (local time) and
 * cloud cover, as the list row does; the id alone until the row's page has loaded.
 */
import type { CatalogRow } from '../../../shared/contract';
import { formatLocalDateTime, formatPercent } from '../../format/units';

export function hoverTooltipText(id: string, row: CatalogRow | undefined): string {
  if (!row) return id;
  return `${formatLocalDateTime(row.datetime)} · ☁ ${formatPercent(row.cloudCover, 0)}`;
}
