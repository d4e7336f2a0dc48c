/**
 * KML, KMZ and GPX through @tmcw/togeojson on an @xmldom/xmldom document (no browser DOM in the
 * backend). A KMZ is a zip whose first .kml entry (doc.kml by convention) is the document.
 * Placemark names and ExtendedData become attributes; GPX tracks are lines, waypoints points.
 */
import { DOMParser } from '@xmldom/xmldom';
import { gpx, kml } from '@tmcw/togeojson';
import { Geometry } from '@eo/domain';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import { makeCounter } from './counter';
import { flatProperties } from './properties';
import { utf8, type ReadResult } from './reader';
import { entryParts, unzipWithin } from './zip';

function parseXml(text: string) {
  let problem: string | undefined;
  const fail = (e?: unknown) =>
    new Error(`not well-formed XML: ${problem ?? (e instanceof Error ? e.message : String(e))}`);
  try {
    const doc = new DOMParser({
      onError(level, message) {
        // Warnings (an unknown entity, say) leave a usable document; errors do not.
        if (level === 'warning') return;
        problem ??= message.split('\n')[0];
        throw new Error(problem);
      },
    }).parseFromString(text, 'text/xml');
    if (problem) throw fail();
    return doc;
  } catch (e) {
    throw fail(e);
  }
}

/**
 * What the KML and GPX readers (togeojson) make of a feature's style, not attributes of it: the
 * style's URL and hashes, the simplestyle keys of its Line/Poly/Icon/LabelStyle (and a GPX
 * line's colour, width and opacity) and a GPX line's kind (route or track). Left out of the
 * preview and of what an import keeps.
 */
const STYLE_KEYS = [
  'styleUrl',
  'styleHash',
  'styleMapHash',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'fill',
  'fill-opacity',
  'icon',
  'icon-color',
  'icon-opacity',
  'icon-scale',
  'icon-heading',
  'icon-offset',
  'icon-offset-units',
  'label-color',
  'label-opacity',
  'label-scale',
  '_gpxType',
] as const;

function collect(
  fc: { features: Array<{ geometry: unknown; properties: unknown }> },
  limits: ImportLimits,
): ReadResult {
  const count = makeCounter(limits);
  const features: RawFeature[] = fc.features.map((f) => {
    const parsed = Geometry.safeParse(f.geometry);
    const geometry = parsed.success ? parsed.data : null;
    count(geometry);
    const properties = flatProperties(f.properties);
    for (const key of STYLE_KEYS) delete properties[key];
    return { geometry, properties };
  });
  return { features, sourceCrs: null };
}

function kmlText(text: string, limits: ImportLimits): ReadResult {
  const doc = parseXml(text);
  if (doc.getElementsByTagName('kml').length === 0) throw new Error('no <kml> element');
  return collect(kml(doc), limits);
}

export function readKml(bytes: Uint8Array, limits: ImportLimits): ReadResult {
  return kmlText(utf8(bytes), limits);
}

export function readKmz(bytes: Uint8Array, limits: ImportLimits): ReadResult {
  // The KML is text parsed whole: its inflated size is bounded like any text file's.
  const within = {
    ...limits,
    maxUncompressedBytes: Math.min(limits.maxUncompressedBytes, limits.maxTextBytes),
  };
  const files = unzipWithin(bytes, within, (name) => entryParts(name).ext === 'kml');
  const names = [...files.keys()].sort((a, b) =>
    a === 'doc.kml' ? -1 : b === 'doc.kml' ? 1 : a.localeCompare(b),
  );
  const first = names[0];
  if (first === undefined) throw new Error('the KMZ holds no .kml document');
  return kmlText(utf8(files.get(first)!), limits);
}

export function readGpx(bytes: Uint8Array, limits: ImportLimits): ReadResult {
  const doc = parseXml(utf8(bytes));
  if (doc.getElementsByTagName('gpx').length === 0) throw new Error('no <gpx> element');
  return collect(gpx(doc), limits);
}
