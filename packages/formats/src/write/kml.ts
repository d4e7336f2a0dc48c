/**
 * KML 2.2 of export features: one Placemark each, named by its `name` (else its id), with its
 * `description` if it has one and every attribute as typed ExtendedData: a `Schema` declares
 * each attribute's type (int, double, bool, string) and each Placemark's `SchemaData` holds its
 * values, so GDAL and QGIS read numbers as numbers (untyped `Data` reads back as text). A null
 * is left out (no value). Text is XML-escaped; characters XML 1.0 cannot hold become U+FFFD
 * rather than making the file unreadable. Coordinates are lon,lat as in GeoJSON; a third
 * coordinate is kept.
 */
import type { Geometry, Position } from '@eo/domain';
import type { ExportFeature, Scalar } from './feature';
import { schemaOf, type ColumnType } from './gpkg-schema';

/** The one Schema of the document (its id is what every SchemaData points at). */
const SCHEMA_ID = 'attributes';

const KML_TYPES: Record<ColumnType, string> = {
  INTEGER: 'int',
  REAL: 'double',
  BOOLEAN: 'bool',
  TEXT: 'string',
  DATETIME: 'string',
  DATE: 'string',
};

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

/** The status a feature is styled by: its own, else its order's. */
function statusOf(p: Readonly<Record<string, Scalar>>): string | null {
  const s = p.status ?? p.order_status;
  return typeof s === 'string' && s !== '' ? s : null;
}

/** KML colours are aabbggrr: done green, failed or cancelled red, under way amber, others blue. */
function statusColour(status: string): string {
  if (/complet|deliver|done|succe|active|ready/i.test(status)) return '4d2eb82e';
  if (/fail|cancel|reject|error|expire/i.test(status)) return '4d2e2ed6';
  if (/pend|queue|process|progress|running|draft|await|new|plan/i.test(status)) return '4d00a5ff';
  return '4dd68a2e';
}

const styleId = (status: string) => `status-${status.replace(/[^A-Za-z0-9_-]/g, '_')}`;

function styles(features: readonly ExportFeature[]): string {
  const statuses = new Set<string>();
  for (const f of features) {
    const s = statusOf(f.properties);
    if (s) statuses.add(s);
  }
  return [...statuses]
    .map((s) => {
      const fill = statusColour(s);
      const line = `ff${fill.slice(2)}`;
      return `<Style id="${xmlText(styleId(s))}"><LineStyle><color>${line}</color><width>2</width></LineStyle><PolyStyle><color>${fill}</color></PolyStyle></Style>`;
    })
    .join('');
}

/** The Schema of every attribute the features have, typed by the values they hold. */
function schema(features: readonly ExportFeature[]): string {
  const { columns } = schemaOf(features);
  if (columns.length === 0) return '';
  const fields = columns
    .map((c) => `<SimpleField name="${xmlText(c.key)}" type="${KML_TYPES[c.type]}"/>`)
    .join('');
  return `<Schema name="${SCHEMA_ID}" id="${SCHEMA_ID}">${fields}</Schema>`;
}

const simpleValue = (v: Exclude<Scalar, null>): string =>
  typeof v === 'boolean' ? (v ? '1' : '0') : String(v);

function placemark(f: ExportFeature, styled: boolean): string {
  const p = f.properties;
  const status = styled ? statusOf(p) : null;
  const name = text(p.name ?? p.id ?? p.aoi_id);
  const description = p.description;
  const values = Object.entries(p)
    .filter((e): e is [string, Exclude<Scalar, null>] => e[1] !== null)
    .map(([k, v]) => `<SimpleData name="${xmlText(k)}">${xmlText(simpleValue(v))}</SimpleData>`)
    .join('');
  const data = values ? `<SchemaData schemaUrl="#${SCHEMA_ID}">${values}</SchemaData>` : '';
  return [
    '<Placemark>',
    `<name>${xmlText(name)}</name>`,
    status ? `<styleUrl>#${xmlText(styleId(status))}</styleUrl>` : '',
    description === undefined || description === null
      ? ''
      : `<description>${xmlText(String(description))}</description>`,
    data ? `<ExtendedData>${data}</ExtendedData>` : '',
    f.geometry ? kmlGeometry(f.geometry) : '',
    '</Placemark>',
  ].join('');
}

/** `styleByStatus`: a Style per status (status, else order_status) and each Placemark uses its own. */
export function toKml(
  features: readonly ExportFeature[],
  options: { styleByStatus?: boolean } = {},
): string {
  const styled = options.styleByStatus === true;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${schema(features)}${styled ? styles(features) : ''}`,
    ...features.map((f) => placemark(f, styled)),
    '</Document></kml>',
    '',
  ].join('\n');
}
