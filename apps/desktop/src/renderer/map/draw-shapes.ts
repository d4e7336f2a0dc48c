/**
 * The shapes a search area or an AOI can be drawn as, and each one as the GeoJSON Polygon the
 * requests carry: a polygon (corners clicked), a rectangle (two corners) and a circle (a point
 * buffered by a radius the user sets). The service takes polygons only, so a circle becomes a
 * 64-gon on the sphere (its area is within 0.2 % of the circle's).
 */
import { AUTHALIC_RADIUS_M, type Polygon } from '@eo/domain';
import L from 'leaflet';
import { polygonOfLayer, wrapLon } from './drawn-polygon';

export const DRAW_SHAPES = ['Polygon', 'Rectangle', 'Circle'] as const;
export type DrawShape = (typeof DRAW_SHAPES)[number];

/** Sides of the polygon a circle is sent as. */
export const CIRCLE_SEGMENTS = 64;
/** Radius choices a user can type (km): from a field to a region. */
export const MIN_RADIUS_KM = 0.01;
export const MAX_RADIUS_KM = 500;

/**
 * The circle of `radiusM` metres around `center` as a closed polygon (counter-clockwise), each
 * corner the point at that great-circle distance on its bearing. Latitudes stop short of the
 * poles and longitudes are wrapped into -180..180, as the request schemas require.
 */
export function circlePolygon(
  center: { readonly lat: number; readonly lon: number },
  radiusM: number,
  segments = CIRCLE_SEGMENTS,
): Polygon {
  const rad = Math.PI / 180;
  const d = radiusM / AUTHALIC_RADIUS_M;
  const lat1 = center.lat * rad;
  const lon1 = center.lon * rad;
  const ring: number[][] = [];
  for (let i = 0; i < segments; i++) {
    // Counter-clockwise from east: bearing runs from 90° down through north.
    const bearing = ((90 - (360 * i) / segments) * rad + 2 * Math.PI) % (2 * Math.PI);
    const lat2 = Math.asin(
      Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing),
    );
    const lon2 =
      lon1 +
      Math.atan2(
        Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
        Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
      );
    const lat = Math.max(-89.9, Math.min(89.9, lat2 / rad));
    ring.push([round(wrapLon(lon2 / rad)), round(lat)]);
  }
  ring.push([ring[0]![0]!, ring[0]![1]!]);
  return { type: 'Polygon', coordinates: [ring] };
}

/** Nine decimals (0.1 mm): the trigonometry's last digits are noise, not position. */
function round(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}

/** A drawn layer (polygon, rectangle or circle) as the Polygon the search or form takes. */
export function polygonOfDrawn(layer: L.Layer): Polygon | null {
  if (layer instanceof L.Circle) {
    const at = layer.getLatLng();
    return circlePolygon({ lat: at.lat, lon: at.lng }, layer.getRadius());
  }
  return polygonOfLayer(layer);
}

/** A typed radius in km, or a sentence saying what is wrong with it. */
export function readRadiusKm(
  raw: string | number,
): { ok: true; km: number } | { ok: false; error: string } {
  const km = Number(String(raw).trim());
  if (
    String(raw).trim() === '' ||
    !Number.isFinite(km) ||
    km < MIN_RADIUS_KM ||
    km > MAX_RADIUS_KM
  ) {
    return {
      ok: false,
      error: `The radius is a distance from ${MIN_RADIUS_KM} to ${MAX_RADIUS_KM} km.`,
    };
  }
  return { ok: true, km };
}
