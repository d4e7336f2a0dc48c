/**
 * Offline rasters by site: rasters whose boxes overlap by at least half of the smaller one are
 * one site (the same place taken offline on several dates, or at two resolutions), listed
 * oldest date first for the date slider; sites newest first.
 */
import type { OfflineRasterView } from '../../../shared/contract';

export interface Site {
  readonly key: string;
  readonly label: string;
  /** Oldest acquisition first. */
  readonly rasters: OfflineRasterView[];
}

type Box = readonly [number, number, number, number];

const area = (b: Box) => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);

/** Overlap of two boxes as a share of the smaller one's area. */
export function overlapShare(a: Box, b: Box): number {
  const inter: Box = [
    Math.max(a[0], b[0]),
    Math.max(a[1], b[1]),
    Math.min(a[2], b[2]),
    Math.min(a[3], b[3]),
  ];
  const smaller = Math.min(area(a), area(b));
  return smaller > 0 ? area(inter) / smaller : 0;
}

const when = (r: OfflineRasterView) => r.raster?.datetime ?? new Date(r.createdAt).toISOString();

export function sitesOf(rasters: readonly OfflineRasterView[]): Site[] {
  const groups: { box: Box; rasters: OfflineRasterView[] }[] = [];
  for (const r of rasters) {
    const box = r.raster?.bounds;
    if (!box) continue;
    const g = groups.find((x) => x.rasters.some((o) => overlapShare(o.raster!.bounds, box) >= 0.5));
    if (g) g.rasters.push(r);
    else groups.push({ box, rasters: [r] });
  }
  return groups
    .map((g) => {
      const sorted = [...g.rasters].sort((a, b) => when(a).localeCompare(when(b)));
      return { key: sorted[0]!.id, label: sorted[sorted.length - 1]!.areaLabel, rasters: sorted };
    })
    .sort((a, b) =>
      when(b.rasters[b.rasters.length - 1]!).localeCompare(when(a.rasters[a.rasters.length - 1]!)),
    );
}
