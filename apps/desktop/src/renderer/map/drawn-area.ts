/**
 * The area of a shape being drawn or just drawn, in words, with a warning when its size is
 * unusual for a scene search or an order (a slip of the mouse makes a 100,000 km² area or a
 * 20 m² one). Geodesic, the domain's `geodesicArea`.
 */
import { geodesicArea, type Polygon } from '@eo/domain';
import { formatAreaSqM } from '../format/records';

/** Below a hectare: probably a mis-click, not a field. */
export const SMALL_AREA_M2 = 1e4;
/** Above 100,000 km² (about Iceland): probably far more than meant, and costly to order. */
export const LARGE_AREA_M2 = 1e11;

export interface AreaReport {
  readonly text: string;
  readonly warning: string | null;
}

export function describeArea(m2: number): AreaReport {
  const text = `Area: ${formatAreaSqM(m2)}`;
  if (m2 < SMALL_AREA_M2) {
    return {
      text,
      warning:
        'Very small (under 0.01 km², 1 ha): the service accepts it and returns every scene touching it, but it covers only a few pixels of most scenes. Is this the area you meant?',
    };
  }
  if (m2 > LARGE_AREA_M2) {
    return {
      text,
      warning:
        'Very large (over 100,000 km²): the service accepts it, but a search may match thousands of scenes (shown a page at a time) and an order over it may cost many tokens and take long to deliver.',
    };
  }
  return { text, warning: null };
}

/** The area of corners drawn so far (lon/lat pairs, ring not closed), 0 below three. */
export function areaOfCorners(corners: ReadonlyArray<readonly [number, number]>): number {
  if (corners.length < 3) return 0;
  const ring = corners.map(([lon, lat]) => [lon, lat]);
  ring.push([corners[0]![0], corners[0]![1]]);
  const polygon: Polygon = { type: 'Polygon', coordinates: [ring] };
  return geodesicArea(polygon);
}
