/**
 * What a screen reader says of a result row (issue 26): the list shows "☁ 14 % ∠ 1.9°", which
 * is read glyph by glyph; these are the same figures in words, and the name of the row's basket
 * box. A missing figure is said as missing, not as a dash.
 */
import type { CatalogRow } from '../../../shared/contract';
import { formatDegrees, formatLocalDateTime, formatPercent, MISSING } from '../../format/units';

const spoken = (text: string) => (text === MISSING ? 'not given' : text);

/** "Cloud cover 14 %, off-nadir 1.9°". */
export function rowFiguresText(row: CatalogRow): string {
  const cloud = spoken(formatPercent(row.cloudCover, 0));
  const offNadir = spoken(formatDegrees(row.offNadir, 1));
  return `Cloud cover ${cloud}, off-nadir ${offNadir}`;
}

/** The scene as a person tells rows apart: its date and satellite ("17 May 2024, 08:30 kestrel-1"). */
export function rowSceneName(row: CatalogRow): string {
  const when = row.datetime ? formatLocalDateTime(row.datetime) : 'undated';
  const satellite = row.platform ?? row.collection;
  return satellite ? `${when} ${satellite}` : when;
}

/** The basket box's name: "Select scene 17 May 2024, 08:30 kestrel-1". */
export function rowSelectLabel(row: CatalogRow): string {
  return `Select scene ${rowSceneName(row)}`;
}
