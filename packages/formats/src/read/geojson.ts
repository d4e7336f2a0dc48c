/**
 * GeoJSON: a FeatureCollection, a Feature or a bare geometry. Geometries are read with the
 * tolerant domain schema; one that does not parse becomes a feature without geometry (the
 * preview says so) rather than failing the whole file.
 */
import { Geometry } from '@eo/domain';
import type { RawFeature } from '../types';
import { makeCounter } from './counter';
import { flatProperties } from './properties';
import { utf8, type Reader } from './reader';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function feature(v: unknown): RawFeature {
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

export const readGeoJson: Reader = (bytes, limits) => {
  const doc: unknown = JSON.parse(utf8(bytes).replace(/^\uFEFF/, ''));
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
    const f = feature(v);
    count(f.geometry);
    return f;
  });
  return { features, sourceCrs: null };
};
