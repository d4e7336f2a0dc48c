/**
 * Drawing without a mouse: an area typed or pasted, read into the Polygon a drawn one gives.
 * Corners typed one per line (three or more, each as "Go to coordinates" reads a position:
 * latitude first, decimal or DMS) become a polygon here; everything else (a box as west, south,
 * east, north; WKT; GeoJSON) is read by the backend with `@eo/formats` (`files.typedArea`),
 * which checks and repairs every typed area the way it checks a field file's.
 */
import type { Polygon } from '@eo/domain';
import type { Bridge } from '../../shared/contract';
import { parseCoordinates } from './coordinates';

export type TypedAreaResult =
  | { readonly ok: true; readonly polygon: Polygon; readonly repairs: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** Not a box, WKT or GeoJSON: a list of corners, one per line. */
function looksLikeCorners(lines: readonly string[]): boolean {
  return lines.length >= 2 && !/^[{[]|^(SRID=|MULTI|POLYGON|POINT|LINESTRING)/i.test(lines[0]!);
}

/** Corners typed one per line as a GeoJSON Polygon's text, or why not (the line at fault). */
export function cornersToGeoJson(lines: readonly string[]): { text: string } | { error: string } {
  if (lines.length < 3) return { error: 'An area needs at least three corners, one per line.' };
  const ring: Array<[number, number]> = [];
  for (const [i, line] of lines.entries()) {
    const p = parseCoordinates(line);
    if (!p.ok) return { error: `Line ${i + 1}: ${p.error}` };
    ring.push([p.at.lon, p.at.lat]);
  }
  return { text: JSON.stringify({ type: 'Polygon', coordinates: [ring] }) };
}

export async function readTypedArea(bridge: Bridge, input: string): Promise<TypedAreaResult> {
  const lines = input
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0)
    return { ok: false, message: 'Type a box, corners, or paste WKT or GeoJSON.' };
  let text = input;
  if (looksLikeCorners(lines)) {
    const corners = cornersToGeoJson(lines);
    if ('error' in corners) return { ok: false, message: corners.error };
    text = corners.text;
  }
  const read = await bridge.call('files.typedArea', { text });
  if (!read.area) return { ok: false, message: `Not an area: ${read.problem ?? 'unreadable'}.` };
  if (read.area.type !== 'Polygon')
    return {
      ok: false,
      message:
        read.kind === 'box'
          ? 'This box crosses the antimeridian (±180°): draw or type it as two areas.'
          : 'This is several polygons: a drawn area is one polygon (import the file for several).',
    };
  return { ok: true, polygon: read.area as Polygon, repairs: read.repairs };
}
