/**
 * A polygon drawn with geoman as a GeoJSON Polygon: longitudes wrapped into -180..180 (the map
 * may have been panned onto a world copy) and every ring closed, as request schemas require.
 */
import type { Polygon } from '@eo/domain';
import L from 'leaflet';

export function wrapLon(lon: number): number {
  // Only off-range values: the modulo arithmetic adds float noise (5.2 -> 5.2000000000000455).
  if (lon >= -180 && lon <= 180) return lon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

export function polygonOfLayer(layer: L.Layer): Polygon | null {
  if (!(layer instanceof L.Polygon)) return null;
  const rings = (layer.getLatLngs() as L.LatLng[][]).map((ring) => {
    const coords = ring.map((p) => [wrapLon(p.lng), p.lat]);
    const first = coords[0];
    if (first) coords.push([first[0]!, first[1]!]);
    return coords;
  });
  if (!rings[0] || rings[0].length < 4) return null;
  return { type: 'Polygon', coordinates: rings };
}
