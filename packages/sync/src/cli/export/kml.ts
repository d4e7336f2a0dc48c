/**
 * KML 2.2 of export features: one Placemark each, named by its `name` (else its id), with its
 * `description` if it has one and every attribute as ExtendedData (QGIS and Google Earth show
 * them). Text is XML-escaped; characters XML 1.0 cannot hold become U+FFFD rather than making
 * the file unreadable. Coordinates are lon,lat as in GeoJSON; a third coordinate is kept.
 */
import type { Geometry, Position } from '@eo/domain';
import type { ExportFeature, Scalar } from './feature';

/** Control characters XML 1.0 forbids (tab, LF and CR are allowed), and lone surrogates. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these control characters are what it matches
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const coords = (ps: readonly Position[]): string =>
  `<coordinates>${ps.map((p) => p.join(',')).join(' ')}</coordinates>`;

function ring(tag: 'outerBoundaryIs' | 'innerBoundaryIs', ps: readonly Position[]): string {
  return `<${tag}><LinearRing>${coords(ps)}</LinearRing></${tag}>`;
}

function polygon(rings: readonly Position[][]): string {
  const [outer, ...holes] = rings;
  if (!outer) return '<Polygon/>';
  return `<Polygon>${ring('outerBoundaryIs', outer)}${holes.map((h) => ring('innerBoundaryIs', h)).join('')}</Polygon>`;
}

export function kmlGeometry(g: Geometry): string {
  switch (g.type) {
    case 'Point':
      return `<Point>${coords([g.coordinates])}</Point>`;
    case 'LineString':
      return `<LineString>${coords(g.coordinates)}</LineString>`;
    case 'Polygon':
      return polygon(g.coordinates);
    case 'MultiPoint':
      return multi(g.coordinates.map((p) => `<Point>${coords([p])}</Point>`));
    case 'MultiLineString':
      return multi(g.coordinates.map((l) => `<LineString>${coords(l)}</LineString>`));
    case 'MultiPolygon':
      return multi(g.coordinates.map(polygon));
    case 'GeometryCollection':
      return multi(g.geometries.map(kmlGeometry));
  }
}

const multi = (parts: readonly string[]): string =>
  `<MultiGeometry>${parts.join('')}</MultiGeometry>`;

const text = (v: Scalar | undefined): string => (v === null || v === undefined ? '' : String(v));

function placemark(f: ExportFeature): string {
  const p = f.properties;
  const name = text(p.name ?? p.id ?? p.aoi_id);
  const description = p.description;
  const data = Object.entries(p)
    .map(([k, v]) => `<Data name="${xmlText(k)}"><value>${xmlText(text(v))}</value></Data>`)
    .join('');
  return [
    '<Placemark>',
    `<name>${xmlText(name)}</name>`,
    description === undefined || description === null
      ? ''
      : `<description>${xmlText(String(description))}</description>`,
    data ? `<ExtendedData>${data}</ExtendedData>` : '',
    f.geometry ? kmlGeometry(f.geometry) : '',
    '</Placemark>',
  ].join('');
}

export function toKml(features: readonly ExportFeature[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>',
    ...features.map(placemark),
    '</Document></kml>',
    '',
  ].join('\n');
}
