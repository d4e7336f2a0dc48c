/**
 * "Go to coordinates": what a field team types, read into a position. Decimal degrees
 * (`44.05, -123.09`, `44.05N 123.09W`) and degrees-minutes-seconds (`44°3'18"N 123°5'24"W`,
 * `44 3 18 N, 123 5 24 W`, `N 44° 3.3' W 123° 5.4'`). Latitude first unless the hemisphere
 * letters say otherwise. Returns the position or a sentence saying what is wrong.
 */
export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

export type ParsedCoordinates =
  { readonly ok: true; readonly at: LatLon } | { readonly ok: false; readonly error: string };

type Axis = 'lat' | 'lon' | null;

interface Part {
  readonly value: number;
  readonly axis: Axis;
}

const HEMISPHERE = /[NSEW]/g;
const NUMBER = /[-+]?\d+(?:\.\d+)?/g;

function normalize(text: string): string {
  return text
    .toUpperCase()
    .replace(/[′’‘`]/g, "'")
    .replace(/[″”“]|''/g, '"')
    .replace(/º|˚/g, '°')
    .trim();
}

/** Cut the text into its latitude and longitude halves (in typed order). */
function halves(text: string): string[] | string {
  if (/[,;]/.test(text)) return text.split(/[,;]/).map((s) => s.trim());
  const letters = [...text.matchAll(HEMISPHERE)];
  if (letters.length === 2) {
    const [a, b] = letters as [RegExpMatchArray, RegExpMatchArray];
    // Suffixes (`44N 123W`): cut after the first letter; prefixes (`N44 W123`): before the second.
    const prefixed = /^[NSEW]/.test(text);
    const cut = prefixed ? b.index! : a.index! + 1;
    return [text.slice(0, cut).trim(), text.slice(cut).trim()];
  }
  if (letters.length !== 0) return 'Give both a latitude and a longitude hemisphere (N/S and E/W).';
  const numbers = text.match(NUMBER) ?? [];
  if (numbers.length === 2 || numbers.length === 4 || numbers.length === 6) {
    const half = numbers.length / 2;
    return [numbers.slice(0, half).join(' '), numbers.slice(half).join(' ')];
  }
  return 'Type a latitude and a longitude, for example 44.05, -123.09 or 44°3\'18"N 123°5\'24"W.';
}

function readPart(text: string): Part | string {
  const letters = text.match(HEMISPHERE) ?? [];
  if (letters.length > 1) return `“${text}” has more than one hemisphere letter.`;
  const rest = text.replace(HEMISPHERE, ' ');
  if (/[^\d\s.+\-°'"DMS]/.test(rest)) return `“${text}” is not a coordinate.`;
  const numbers = (rest.match(NUMBER) ?? []).map(Number);
  if (numbers.length === 0 || numbers.length > 3) return `“${text}” is not a coordinate.`;
  const [deg, min = 0, sec = 0] = numbers as [number, number?, number?];
  if (numbers.slice(1).some((n) => n < 0 || n >= 60)) {
    return `Minutes and seconds run from 0 to under 60 (in “${text}”).`;
  }
  if (numbers.length > 1 && !Number.isInteger(deg)) {
    return `Degrees with minutes must be whole (in “${text}”).`;
  }
  const letter = letters[0];
  const negative = deg < 0 || Object.is(deg, -0) || /^\s*-/.test(rest);
  if (negative && letter)
    return `Use a minus sign or a hemisphere letter, not both (in “${text}”).`;
  const magnitude = Math.abs(deg) + min / 60 + sec / 3600;
  const sign = negative || letter === 'S' || letter === 'W' ? -1 : 1;
  const axis: Axis = letter === 'N' || letter === 'S' ? 'lat' : letter ? 'lon' : null;
  return { value: sign * magnitude, axis };
}

export function parseCoordinates(input: string): ParsedCoordinates {
  const text = normalize(input);
  if (!text) return { ok: false, error: 'Type a latitude and a longitude.' };
  const cut = halves(text);
  if (typeof cut === 'string') return { ok: false, error: cut };
  if (cut.length !== 2) return { ok: false, error: 'Type one latitude and one longitude.' };
  const parts = cut.map(readPart);
  const bad = parts.find((p): p is string => typeof p === 'string');
  if (bad) return { ok: false, error: bad };
  const [a, b] = parts as [Part, Part];
  if (a.axis !== null && a.axis === b.axis) {
    return { ok: false, error: 'Both values are on the same axis: give one N/S and one E/W.' };
  }
  const [latPart, lonPart] = a.axis === 'lon' || b.axis === 'lat' ? [b, a] : [a, b];
  if (Math.abs(latPart.value) > 90) {
    return { ok: false, error: 'The latitude must lie between -90 and 90.' };
  }
  if (Math.abs(lonPart.value) > 180) {
    return { ok: false, error: 'The longitude must lie between -180 and 180.' };
  }
  return { ok: true, at: { lat: latPart.value, lon: lonPart.value } };
}

/** A position in decimal degrees, as the cursor readout shows it. */
export function formatLatLon(lat: number, lon: number, digits = 5): string {
  return `${lat.toFixed(digits)}, ${lon.toFixed(digits)}`;
}
