/**
 * The device's answer to `navigator.geolocation` in renderer specs (happy-dom has none): a
 * position with its accuracy, or an error code (1 denied, 2 unavailable); `restoreGeolocation`
 * puts back what was there.
 */
const original = Object.getOwnPropertyDescriptor(navigator, 'geolocation');

export function deviceSays(
  answer: { lat: number; lon: number; accuracy: number } | { code: 1 | 2 } | 'none',
): void {
  if (answer === 'none') {
    Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true });
    return;
  }
  const geolocation = {
    getCurrentPosition: (ok: PositionCallback, fail: PositionErrorCallback) => {
      if ('code' in answer) {
        fail({
          code: answer.code,
          PERMISSION_DENIED: 1,
          message: 'no',
        } as GeolocationPositionError);
      } else {
        ok({
          coords: { latitude: answer.lat, longitude: answer.lon, accuracy: answer.accuracy },
        } as GeolocationPosition);
      }
    },
  };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
}

export function restoreGeolocation(): void {
  if (original) Object.defineProperty(navigator, 'geolocation', original);
  else delete (navigator as { geolocation?: unknown }).geolocation;
}
