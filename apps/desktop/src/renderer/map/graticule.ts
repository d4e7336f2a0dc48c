/**
 * The graticule: meridians and parallels at a round step chosen for the zoom (lines about
 * 100-250 px apart), with their degree labels along the view's top and left edges.
 */
import { mercX, mercY, unmercX, unmercY } from './mercator';

/** Steps in degrees, largest first. */
const STEPS = [30, 20, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.02, 0.01];

/** The largest step whose lines are at least `minPixels` apart at this world scale. */
export function graticuleStep(scale: number, minPixels = 100): number {
  // One degree of longitude in pixels (parallels are at least as far apart in Mercator).
  const perDegree = scale / 360;
  let best = STEPS[0]!;
  for (const s of STEPS) {
    if (s * perDegree >= minPixels) best = s;
    else break;
  }
  return best;
}

/** A degree value as labelled: 10°N, 0°, 123.5°W (up to 2 decimals, no trailing zeros). */
export function formatDegrees(value: number, axis: 'lat' | 'lon'): string {
  const v = Math.round(value * 100) / 100;
  if (v === 0) return '0°';
  const hemi = axis === 'lat' ? (v > 0 ? 'N' : 'S') : v > 0 ? 'E' : 'W';
  return `${Math.abs(v)}°${hemi}`;
}

export interface GraticuleLine {
  readonly value: number;
  /** Screen position: x of a meridian, y of a parallel. */
  readonly at: number;
  readonly label: string;
}

export interface ViewBox {
  readonly scale: number;
  readonly originX: number;
  readonly originY: number;
  readonly width: number;
  readonly height: number;
}

/** The meridians and parallels crossing a view. */
export function graticuleLines(view: ViewBox): {
  meridians: GraticuleLine[];
  parallels: GraticuleLine[];
} {
  const step = graticuleStep(view.scale);
  const { scale, originX, originY, width, height } = view;
  const meridians: GraticuleLine[] = [];
  const west = unmercX(originX / scale);
  const east = unmercX((originX + width) / scale);
  for (let k = Math.ceil(west / step); k * step <= east && meridians.length < 200; k++) {
    const lon = k * step;
    // Longitude wraps: the label of 190° is 170°W.
    const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
    meridians.push({
      value: wrapped,
      at: mercX(lon) * scale - originX,
      label: formatDegrees(wrapped, 'lon'),
    });
  }
  const parallels: GraticuleLine[] = [];
  const north = Math.min(85, unmercY(originY / scale));
  const south = Math.max(-85, unmercY((originY + height) / scale));
  for (let k = Math.ceil(south / step); k * step <= north && parallels.length < 200; k++) {
    const lat = k * step;
    parallels.push({
      value: lat,
      at: mercY(lat) * scale - originY,
      label: formatDegrees(lat, 'lat'),
    });
  }
  return { meridians, parallels };
}
