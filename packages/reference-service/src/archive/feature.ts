/**
 * The parts of an archive feature (spec 2.11) that follow from its collection and satellite:
 * STAC boilerplate, the per-satellite property values and the asset list. Stored scenes keep
 * only what varies per scene (`compactFeature`); reads put the rest back (`expandFeature`), so
 * a million scenes do not each store the same 1.5 kB. Links are always built on read (`links.ts`).
 */
import type { ArchiveFeature } from '@eo/domain';
import type { z } from 'zod';
import { collectionById, satelliteById } from '../reference/catalog';

export type ArchiveFeatureIn = z.input<typeof ArchiveFeature>;
type Properties = ArchiveFeatureIn['properties'];

export const STAC_VERSION = '1.0.0';
export const ARCHIVE_STAC_EXTENSIONS = [
  'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
  'https://stac-extensions.github.io/view/v1.0.0/schema.json',
  'https://stac-extensions.github.io/projection/v2.0.0/schema.json',
  'https://stac-extensions.github.io/sat/v1.0.0/schema.json',
  'https://stac-extensions.github.io/scientific/v1.0.0/schema.json',
];

const COG = 'image/tiff; application=geotiff; profile=cloud-optimized';

/** Property values shared by every scene of a satellite in a collection. */
export function constantProperties(collectionId: string, satelliteId: string): Properties {
  const col = collectionById(collectionId);
  const sat = satelliteById(satelliteId);
  if (!col || !sat) return {};
  return {
    constellation: sat.constellation,
    platform: sat.platform,
    instruments: [...sat.instruments],
    description: col.description,
    license: col.license,
    'sci:doi': `10.5555/eo-field-desk.${col.id}`,
    'rd:product_level': col.productLevel,
    'rd:sat_id': sat.id,
    'rd:type': 'optical',
    'sat:orbit_state': 'descending',
  };
}

/**
 * Where a scene's files live (a storage URI). Quicklooks (`thumbnail.png`, `overview.png`)
 * are served: responses replace their storage URI with a signed URL (imagery/hrefs.ts).
 */
export function sceneFolder(collectionId: string, id: string, datetime: string): string {
  const day = datetime.slice(0, 10).replaceAll('-', '/');
  return `s3://eo-archive/${collectionId}/${day}/${id}`;
}

/** A thumbnail and an overview (PNG quicklooks), a true-colour COG, one COG per band and the metadata document. */
export function sceneAssets(
  collectionId: string,
  satelliteId: string,
  id: string,
  datetime: string,
): NonNullable<ArchiveFeatureIn['assets']> {
  const sat = satelliteById(satelliteId);
  const folder = sceneFolder(collectionId, id, datetime);
  const assets: NonNullable<ArchiveFeatureIn['assets']> = {
    thumbnail: {
      href: `${folder}/thumbnail.png`,
      type: 'image/png',
      title: 'Thumbnail',
      roles: ['thumbnail'],
    },
    overview: {
      href: `${folder}/overview.png`,
      type: 'image/png',
      title: 'Overview',
      roles: ['overview'],
    },
    visual: { href: `${folder}/visual.tif`, type: COG, title: 'True colour', roles: ['visual'] },
  };
  for (const b of sat?.bands ?? []) {
    assets[b.name] = {
      href: `${folder}/${b.name}.tif`,
      type: COG,
      title: `${b.name} (${b.common_name}, ${b.wavelength} nm)`,
      roles: ['data'],
      'eo:bands': [
        { name: b.name, common_name: b.common_name, center_wavelength: b.wavelength / 1000 },
      ],
    };
  }
  assets.metadata = {
    href: `${folder}/metadata.json`,
    type: 'application/json',
    title: 'Product metadata',
    roles: ['metadata'],
  };
  return assets;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Equality of property values (scalars or arrays of scalars), without serialising. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

const constantsCache = new Map<string, Record<string, unknown>>();
function cachedConstants(collectionId: string, satelliteId: string): Record<string, unknown> {
  const key = `${collectionId}\u0000${satelliteId}`;
  let c = constantsCache.get(key);
  if (!c) constantsCache.set(key, (c = constantProperties(collectionId, satelliteId)));
  return c;
}

/**
 * What is stored for a scene: its own values only (anything equal to the derived value is
 * dropped; absent assets mean the derived ones).
 */
export function compactFeature(feature: ArchiveFeatureIn, satelliteId: string): object {
  const collectionId = feature.collection ?? '';
  const constants = cachedConstants(collectionId, satelliteId);
  const properties: Record<string, unknown> = {};
  for (const k in feature.properties) {
    const v = feature.properties[k];
    if (k === 'title' && v === feature.id) continue;
    if (!(k in constants) || !sameValue(constants[k], v)) properties[k] = v;
  }
  const out: Record<string, unknown> = {
    bbox: feature.bbox,
    geometry: feature.geometry,
    properties,
  };
  // No assets given: the derived ones (what the seed generator relies on to stay fast).
  const datetime = String(feature.properties.datetime ?? '');
  if (
    feature.assets !== undefined &&
    !sameJson(feature.assets, sceneAssets(collectionId, satelliteId, feature.id, datetime))
  )
    out.assets = feature.assets;
  if (!sameValue(feature.stac_extensions, ARCHIVE_STAC_EXTENSIONS))
    out.stac_extensions = feature.stac_extensions ?? [];
  if (feature.stac_version !== STAC_VERSION) out.stac_version = feature.stac_version ?? null;
  return out;
}

interface Stored {
  bbox?: ArchiveFeatureIn['bbox'];
  geometry: ArchiveFeatureIn['geometry'];
  properties: Record<string, unknown>;
  assets?: ArchiveFeatureIn['assets'];
  stac_extensions?: string[];
  stac_version?: string | null;
}

/** The full feature (without links) from a stored row. */
export function expandFeature(
  id: string,
  collectionId: string,
  satelliteId: string,
  featureJson: string,
): ArchiveFeatureIn {
  const s = JSON.parse(featureJson) as Stored;
  const properties = {
    title: id,
    ...constantProperties(collectionId, satelliteId),
    ...s.properties,
  } as Properties;
  return {
    type: 'Feature',
    stac_version: s.stac_version === undefined ? STAC_VERSION : s.stac_version,
    stac_extensions: s.stac_extensions ?? ARCHIVE_STAC_EXTENSIONS,
    id,
    collection: collectionId,
    bbox: s.bbox ?? null,
    geometry: s.geometry,
    properties,
    assets:
      s.assets ?? sceneAssets(collectionId, satelliteId, id, String(properties.datetime ?? '')),
  };
}
