/**
 * GeoJSON: a FeatureCollection, a Feature or a bare geometry. Geometries are read with the
 * tolerant domain schema; one that does not parse becomes a feature without geometry (the
 * preview says so) rather than failing the whole file.
 */
import { Geometry } from '@eo/domain';
import proj4 from 'proj4';
import { mapPositions, toWgs84 } from '../geometry/reproject';
import type { RawFeature } from '../types';
import { makeCounter } from './counter';
import { flatProperties } from './properties';
import type { ImportLimits } from '../limits';
import { utf8, type Reader, type ReadResult } from './reader';

type Json = Record<string, unknown>;
export const isObj = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One GeoJSON feature (anything else: a feature without geometry or attributes). */
export function geoJsonFeature(v: unknown): RawFeature {
  const f = isObj(v) ? v : {};
  const parsed = Geometry.safeParse(f.geometry);
  const properties = flatProperties(f.properties);
  if (
    f.id !== undefined &&
    properties.id === undefined &&
    (typeof f.id === 'string' || typeof f.id === 'number')
  )
    properties.id = f.id;
  return { geometry: parsed.success ? parsed.data : null, properties };
}

/**
 * The pre-RFC 7946 `crs` member (GeoJSON 2008, still written by some tools): EPSG:4326 and
 * CRS84 are WGS 84 already; the others proj4 knows by name (EPSG:3857, EPSG:4269) are
 * reprojected; anything else is refused rather than read as longitude/latitude.
 */
export function namedCrs(crs: unknown): string | null {
  if (!isObj(crs) || !isObj(crs.properties) || typeof crs.properties.name !== 'string') return null;
  const name = crs.properties.name;
  const code = /EPSG:{1,2}(\d+)$/i.exec(name)?.[1];
  if (/CRS84$/i.test(name) || code === '4326') return null;
  const known = code === undefined ? undefined : `EPSG:${code === '900913' ? '3857' : code}`;
  if (!known || !proj4.defs(known))
    throw new Error(`a CRS this reader does not know (${name}): export the file in WGS 84`);
  return known;
}

export const readGeoJson: Reader = (bytes, limits) =>
  readGeoJsonDocument(JSON.parse(utf8(bytes).replace(/^\uFEFF/, '')), limits);

/** A parsed GeoJSON document: its features, counted against the limits, in WGS 84. */
export function readGeoJsonDocument(doc: unknown, limits: ImportLimits): ReadResult {
  if (!isObj(doc)) throw new Error('not a GeoJSON object');
  let list: unknown[];
  if (doc.type === 'FeatureCollection') {
    if (!Array.isArray(doc.features))
      throw new Error('a FeatureCollection without a features list');
    list = doc.features;
  } else if (doc.type === 'Feature') list = [doc];
  else if (Geometry.safeParse(doc).success)
    list = [{ type: 'Feature', geometry: doc, properties: {} }];
  else throw new Error(`not GeoJSON: type ${JSON.stringify(doc.type)}`);
  const count = makeCounter(limits);
  const features = list.map((v) => {
    const f = geoJsonFeature(v);
    count(f.geometry);
    return f;
  });
  return inWgs84(features, doc.crs);
}

/** `features` reprojected from the document's named `crs`, when it names one. */
export function inWgs84(features: RawFeature[], crsMember: unknown): ReadResult {
  const crs = namedCrs(crsMember);
  if (!crs) return { features, sourceCrs: null };
  const project = toWgs84(crs);
  return {
    features: features.map((f) =>
      f.geometry ? { ...f, geometry: mapPositions(f.geometry, project) } : f,
    ),
    sourceCrs: crs,
  };
}
