/**
 * The stored raster format of a scene (README "The stored raster format"), as code: the
 * service's scene COG and every window a client stores from it carry the same reflectance
 * encoding, band metadata and scene items, written and read through these functions.
 */
import type { BandMetadata, RasterMetadata } from './metadata';

/** Surface reflectance as uint16: reflectance = value × 0.0001 + 0; 0 is nodata. */
export const REFLECTANCE = { sampleType: 'uint16', scale: 0.0001, offset: 0, nodata: 0 } as const;

/** Tiles of the service's COGs (and so of every window cut from them). */
export const SCENE_TILE_SIZE = 512;

/** GDAL_METADATA dataset items of a scene raster. */
export const SCENE_ITEMS = {
  sceneId: 'SCENE_ID',
  datetime: 'DATETIME',
  collection: 'COLLECTION',
  satellite: 'SATELLITE',
  bandset: 'BANDSET',
  cloudCover: 'CLOUD_COVER',
  level: 'LEVEL',
  resolutionM: 'RESOLUTION_M',
  sourceUrl: 'SOURCE_URL',
} as const;

/** Per-band items besides the description (band name), scale and offset. */
export const BAND_ITEMS = { commonName: 'COMMON_NAME', wavelengthNm: 'WAVELENGTH_NM' } as const;

export interface SceneRasterInfo {
  /** The scene's STAC id. */
  readonly sceneId: string;
  /** Acquisition instant, ISO 8601 UTC. */
  readonly datetime: string;
  readonly collection: string;
  /** The platform (STAC `platform`, e.g. `aurora-1`). */
  readonly satellite: string;
  readonly bandset?: string;
  /** `eo:cloud_cover`, 0..100. */
  readonly cloudCover?: number;
  /** 0: the scene's full resolution; N: its overview N. */
  readonly level?: number;
  /** Pixel size at that level, metres. */
  readonly resolutionM?: number;
  /** The COG it was cut from, without its query string (no signature or key is ever stored). */
  readonly sourceUrl?: string;
}

export interface SceneBand {
  /** The satellite's band name (`B04`, `NIR`): the band's description. */
  readonly name: string;
  /** STAC `eo:common_name` (`red`, `nir`). */
  readonly commonName?: string;
  readonly wavelengthNm?: number;
}

/** A URL without its query string and fragment (signed URLs carry their permission there). */
export function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}

/** The dataset items of a scene raster (the fields given; `sourceUrl` without its query string). */
export function sceneItems(info: Partial<SceneRasterInfo>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, key] of Object.entries(SCENE_ITEMS)) {
    const v = info[field as keyof SceneRasterInfo];
    if (v === undefined) continue;
    out[key] = field === 'sourceUrl' ? withoutQuery(String(v)) : String(v);
  }
  return out;
}

/** The scene items of a raster's metadata (what is there; numbers parsed). */
export function readSceneItems(md: RasterMetadata): Partial<SceneRasterInfo> {
  const d = md.dataset;
  const num = (k: string) =>
    d[k] !== undefined && Number.isFinite(Number(d[k])) ? Number(d[k]) : undefined;
  const out: Record<string, string | number> = {};
  for (const [field, key] of Object.entries(SCENE_ITEMS)) {
    const isNumber = field === 'cloudCover' || field === 'level' || field === 'resolutionM';
    const v = isNumber ? num(key) : d[key];
    if (v !== undefined) out[field] = v;
  }
  return out as Partial<SceneRasterInfo>;
}

/** Band metadata of reflectance bands: name as description, scale, offset, common name, wavelength. */
export function reflectanceBands(bands: readonly SceneBand[]): BandMetadata[] {
  return bands.map((b) => {
    const items: Record<string, string> = {};
    if (b.commonName !== undefined) items[BAND_ITEMS.commonName] = b.commonName;
    if (b.wavelengthNm !== undefined) items[BAND_ITEMS.wavelengthNm] = String(b.wavelengthNm);
    return {
      description: b.name,
      scale: REFLECTANCE.scale,
      offset: REFLECTANCE.offset,
      ...(Object.keys(items).length ? { items } : {}),
    };
  });
}

/** The bands of a raster's metadata as scene bands. */
export function readSceneBands(md: RasterMetadata): SceneBand[] {
  return md.bands.map((b, i) => {
    const wl = Number(b.items?.[BAND_ITEMS.wavelengthNm]);
    return {
      name: b.description ?? `band ${i + 1}`,
      ...(b.items?.[BAND_ITEMS.commonName] ? { commonName: b.items[BAND_ITEMS.commonName] } : {}),
      ...(Number.isFinite(wl) && b.items?.[BAND_ITEMS.wavelengthNm] ? { wavelengthNm: wl } : {}),
    };
  });
}
