/**
 * Date presets of the catalog filter: the last 7 days, the last 30 days and this season
 * (meteorological: Dec-Feb, Mar-May, Jun-Aug, Sep-Nov), as UTC calendar days (`YYYY-MM-DD`, the
 * values of the date pickers), today included. `now` is a parameter so tests fix the day.
 */
export const DATE_PRESETS = ['last7', 'last30', 'season'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export interface DayRange {
  readonly from: string;
  readonly to: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The month (0-11, -1 for the December before) this season started in. */
function seasonStartMonth(month: number): number {
  return month - ((month + 1) % 3);
}

export function presetRange(preset: DatePreset, now: Date = new Date()): DayRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (preset === 'last7') return { from: day(today - 6 * DAY_MS), to: day(today) };
  if (preset === 'last30') return { from: day(today - 29 * DAY_MS), to: day(today) };
  const start = Date.UTC(now.getUTCFullYear(), seasonStartMonth(now.getUTCMonth()), 1);
  return { from: day(start), to: day(today) };
}

export function presetLabel(preset: DatePreset, now: Date = new Date()): string {
  if (preset === 'last7') return 'Last 7 days';
  if (preset === 'last30') return 'Last 30 days';
  const first = seasonStartMonth(now.getUTCMonth());
  const name = (m: number) => MONTHS[(m + 12) % 12]!;
  return `This season (${name(first)}–${name(first + 2)})`;
}
