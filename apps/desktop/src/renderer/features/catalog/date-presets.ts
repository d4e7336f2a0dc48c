/**
 * Date presets of the catalog filter: the last 7 days, the last 30 days and this season
 * (meteorological: Dec-Feb, Mar-May, Jun-Aug, Sep-Nov), as UTC calendar days (`YYYY-MM-DD`, the
 * values of the date pickers), today included. `now` is a parameter so tests fix the day.
 *
 * The season is named for the hemisphere of the place looked at (`lat`: the map view's or the
 * drawn area's centre): Sep-Nov is autumn in Europe and spring in Argentina. Between the
 * tropics four seasons say little (wet and dry seasons are local): there it is the last
 * three months. Without a latitude the season keeps its months alone.
 */
export const DATE_PRESETS = ['last7', 'last30', 'season'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export interface DayRange {
  readonly from: string;
  readonly to: string;
}

/** Latitudes within this of the equator are the tropics (the Tropic of Cancer, rounded). */
const TROPICS_LAT = 23.5;
const NORTH_SEASONS = ['Winter', 'Spring', 'Summer', 'Autumn'];
const SOUTH_SEASONS = ['Summer', 'Autumn', 'Winter', 'Spring'];

type Zone = 'north' | 'south' | 'tropics' | null;
const zoneOf = (lat: number | null | undefined): Zone =>
  lat === null || lat === undefined || !Number.isFinite(lat)
    ? null
    : Math.abs(lat) < TROPICS_LAT
      ? 'tropics'
      : lat > 0
        ? 'north'
        : 'south';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The month (0-11, -1 for the December before) this season started in. */
function seasonStartMonth(month: number): number {
  return month - ((month + 1) % 3);
}

export function presetRange(
  preset: DatePreset,
  now: Date = new Date(),
  lat: number | null = null,
): DayRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (preset === 'last7') return { from: day(today - 6 * DAY_MS), to: day(today) };
  if (preset === 'last30') return { from: day(today - 29 * DAY_MS), to: day(today) };
  if (zoneOf(lat) === 'tropics') {
    const back = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, now.getUTCDate() + 1);
    return { from: day(back), to: day(today) };
  }
  const start = Date.UTC(now.getUTCFullYear(), seasonStartMonth(now.getUTCMonth()), 1);
  return { from: day(start), to: day(today) };
}

export function presetLabel(
  preset: DatePreset,
  now: Date = new Date(),
  lat: number | null = null,
): string {
  if (preset === 'last7') return 'Last 7 days';
  if (preset === 'last30') return 'Last 30 days';
  const zone = zoneOf(lat);
  if (zone === 'tropics') return 'Last 3 months';
  const first = seasonStartMonth(now.getUTCMonth());
  const name = (m: number) => MONTHS[(m + 12) % 12]!;
  const months = `${name(first)}–${name(first + 2)}`;
  if (zone === null) return `This season (${months})`;
  const season = (zone === 'north' ? NORTH_SEASONS : SOUTH_SEASONS)[
    Math.floor(((first + 13) % 12) / 3)
  ]!;
  return `This ${season.toLowerCase()} (${months})`;
}
