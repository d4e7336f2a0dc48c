/**
 * Where the device is: `navigator.geolocation` (Electron grants it to our page alone:
 * main/window.ts; a browser asks the user), as a promise that always settles, within a bounded
 * time, with the position and its accuracy or why there is none. "Near me" and the pixel
 * inspector's "at my position" ask it; each says the failure in its own words.
 */
import type { LatLon } from './coordinates';

/** How long the device may take to say where it is. */
export const GEO_TIMEOUT_MS = 15_000;

export type DevicePosition =
  | { readonly ok: true; readonly at: LatLon; readonly accuracyM: number | null }
  /** `unavailable`: no location service; `denied`: not allowed; `failed`: none found in time. */
  | { readonly ok: false; readonly why: 'unavailable' | 'denied' | 'failed' };

/**
 * `maxAgeMs`: how old a position the device already has may be (a minute for "Near me"; the
 * inspector asks for the pixel under the device now).
 */
export function devicePosition(
  maxAgeMs = 60_000,
  geo: Geolocation | undefined = typeof navigator !== 'undefined'
    ? navigator.geolocation
    : undefined,
): Promise<DevicePosition> {
  if (!geo) return Promise.resolve({ ok: false, why: 'unavailable' });
  return new Promise((resolve) =>
    geo.getCurrentPosition(
      (p) =>
        resolve({
          ok: true,
          at: { lat: p.coords.latitude, lon: p.coords.longitude },
          accuracyM: Number.isFinite(p.coords.accuracy) ? p.coords.accuracy : null,
        }),
      (e) => resolve({ ok: false, why: e.code === e.PERMISSION_DENIED ? 'denied' : 'failed' }),
      { enableHighAccuracy: true, timeout: GEO_TIMEOUT_MS, maximumAge: maxAgeMs },
    ),
  );
}
