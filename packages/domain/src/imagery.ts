/**
 * Imagery: the picture files behind asset hrefs (quicklooks of archive scenes and catalog
 * records) and the rendered index PNG of a visualization. Sizes, URL parameter names, header
 * names, colormaps and the pixel-to-ground convention are defined here once, for the service
 * that renders them and the clients that mirror and draw them.
 */
import { z } from 'zod';
import type { Geometry } from './geometry';

/** Asset keys (and roles) of the quicklooks in a STAC item's `assets`. */
export const QUICKLOOK_VARIANTS = ['thumbnail', 'overview'] as const;
export type QuicklookVariant = (typeof QUICKLOOK_VARIANTS)[number];
export const QuicklookVariant = z.enum(QUICKLOOK_VARIANTS);

/** What a client mirrors of the quicklooks: nothing, thumbnails, or thumbnails and overviews. */
export const IMAGERY_CHOICES = ['off', 'thumbnails', 'overviews'] as const;
export const ImageryChoice = z.enum(IMAGERY_CHOICES);
export type ImageryChoice = z.infer<typeof ImageryChoice>;

/** Edge length in pixels of each quicklook (square images; see `quicklookCorners`). */
export const QUICKLOOK_PIXELS: Readonly<Record<QuicklookVariant, number>> = {
  thumbnail: 256,
  overview: 1024,
};

/**
 * Query parameters of a signed asset URL: `?expires=<unix seconds>&org=<id>&signature=<base64url>`.
 * The URL works without an API key until `expires`; the key is not accepted instead. `org`
 * (signed too) is the organisation it was issued to: the service queues the work behind it
 * under that organisation's share. Clients treat the whole URL as opaque.
 */
export const SIGNED_URL_PARAMS = {
  expires: 'expires',
  org: 'org',
  signature: 'signature',
} as const;

/** A signed URL stays valid at least this long after the response that carried it. */
export const SIGNED_URL_MIN_VALIDITY_S = 24 * 3600;

/**
 * Ground corners of a quicklook, as `[lon, lat]` for the image's top-left, top-right,
 * bottom-right and bottom-left pixel corners. A footprint whose exterior ring has four
 * corners (the usual scene rectangle along the ground track) maps to them in ring order;
 * anything else (a split footprint, a many-sided polygon) maps to its bbox, north up.
 * Clients warp the picture onto these four points; the service renders each pixel from the
 * ground at the same bilinear position, so both agree.
 */
export function quicklookCorners(
  geometry: Geometry | null | undefined,
  bbox: readonly number[] | null | undefined,
): [number, number][] | null {
  if (geometry?.type === 'Polygon') {
    const ring = geometry.coordinates[0] ?? [];
    const closed = ring.length === 5 && ring[0]![0] === ring[4]![0] && ring[0]![1] === ring[4]![1];
    if (closed) return ring.slice(0, 4).map((p) => [p[0]!, p[1]!]);
  }
  const b = bbox && bbox.length >= 4 ? bbox.map(Number) : null;
  if (!b || !b.every(Number.isFinite)) return null;
  const [w, s, e, n] = [b[0]!, b[1]!, b[2]!, b[3]!];
  // A bbox crossing the antimeridian (west > east) continues east past 180.
  const east = e < w ? e + 360 : e;
  return [
    [w, n],
    [east, n],
    [east, s],
    [w, s],
  ];
}

/**
 * `POST /v0/aois/{aoi_id}/visualizations/{visualization_id}/png` (the provider's real
 * service has it; our spec does not): the index of a visualization over its AOI, for the
 * scene acquired on `date`, as a PNG. Body as the real service's `atlas.PngRequest`.
 */
export const VISUALIZATION_MODES = ['dynamic', 'theoretical'] as const;
export type VisualizationMode = (typeof VISUALIZATION_MODES)[number];
export const VisualizationPngRequest = z.strictObject({
  index_id: z.string().min(1, 'must not be empty').max(200),
  /** `YYYY_MM_DD` (the real service's layout); `YYYY-MM-DD` is accepted too. */
  date: z
    .string()
    .regex(/^\d{4}[_-]\d{2}[_-]\d{2}$/, 'must be a date as YYYY_MM_DD')
    .transform((d) => d.replaceAll('_', '-')),
  /** `theoretical`: the index's own rescale; `dynamic`: the 2nd to 98th percentile of the values. */
  visualization_mode: z.enum(VISUALIZATION_MODES),
});
export type VisualizationPngRequest = z.output<typeof VisualizationPngRequest>;

/** Response headers of the index PNG: where it lies and what its colours mean. */
export const VISUALIZATION_PNG_HEADERS = {
  /** `west,south,east,north` (degrees) of the image's edges, north up. */
  bounds: 'x-eo-bounds',
  /** `min,max` index values mapped to the ends of the colormap. */
  rescale: 'x-eo-rescale',
  /** The colormap name used (one of `COLORMAPS`, or `rgb` for composites). */
  colormap: 'x-eo-colormap',
} as const;

/** Colormap stops, low to high, as `#rrggbb` (ColorBrewer / matplotlib names). */
export const COLORMAPS: Readonly<Record<string, readonly string[]>> = {
  RdYlGn: ['#a50026', '#f46d43', '#fee08b', '#d9ef8b', '#66bd63', '#006837'],
  Blues: ['#f7fbff', '#c6dbef', '#6baed6', '#2171b5', '#08306b'],
  RdBu: ['#b2182b', '#ef8a62', '#fddbc7', '#d1e5f0', '#67a9cf', '#2166ac'],
  viridis: ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'],
  gray: ['#000000', '#ffffff'],
};
/** What an unknown colormap name is drawn with. */
export const DEFAULT_COLORMAP = 'viridis';

const hex = (s: string): [number, number, number] => [
  parseInt(s.slice(1, 3), 16),
  parseInt(s.slice(3, 5), 16),
  parseInt(s.slice(5, 7), 16),
];

/** The colour of `t` in 0..1 (clamped) on a colormap, linear between stops. */
export function colormapRgb(name: string, t: number): [number, number, number] {
  const stops = COLORMAPS[name] ?? COLORMAPS[DEFAULT_COLORMAP]!;
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const a = hex(stops[i]!);
  const b = hex(stops[i + 1]!);
  const f = x - i;
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as [number, number, number];
}

/**
 * What an index map's colours mean and where it lies: read from the index PNG's headers
 * (`VISUALIZATION_PNG_HEADERS`), or, from a service that does not send them (the provider's
 * draws its legend into the picture), from the AOI's bbox and the index's rescale and colormap.
 */
export const IndexMapLegend = z.strictObject({
  /** `[west, south, east, north]` of the picture's edges, north up. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** Index values at the ends of the colormap; null when unknown. */
  rescale: z.tuple([z.number(), z.number()]).nullable(),
  /** A `COLORMAPS` name, `rgb` (composite) or `gray`; null when unknown. */
  colormap: z.string().min(1).max(40).nullable(),
});
export type IndexMapLegend = z.infer<typeof IndexMapLegend>;

const numbers = (s: string | null, n: number): number[] | null => {
  const parts = (s ?? '').split(',').map((x) => Number(x.trim()));
  return s && parts.length === n && parts.every(Number.isFinite) ? parts : null;
};

/** The legend fields the index PNG's headers carry (each null when absent or malformed). */
export function indexPngHeaderLegend(get: (name: string) => string | null): {
  bounds: [number, number, number, number] | null;
  rescale: [number, number] | null;
  colormap: string | null;
} {
  const H = VISUALIZATION_PNG_HEADERS;
  const b = numbers(get(H.bounds), 4);
  const bounds =
    b && b[0]! < b[2]! && b[1]! < b[3]! && b[1]! >= -90 && b[3]! <= 90
      ? (b as [number, number, number, number])
      : null;
  const r = numbers(get(H.rescale), 2);
  const colormap = get(H.colormap)?.trim() ?? '';
  return {
    bounds,
    rescale: r && r[0]! < r[1]! ? (r as [number, number]) : null,
    colormap: /^[A-Za-z0-9_-]{1,40}$/.test(colormap) ? colormap : null,
  };
}

/** A mirrored index map's legend with what it shows (stored beside its bytes, sent to pages). */
export const IndexMapInfo = IndexMapLegend.extend({
  index_id: z.string().min(1).max(200),
  index_name: z.string().max(200).nullable(),
});
export type IndexMapInfo = z.infer<typeof IndexMapInfo>;
