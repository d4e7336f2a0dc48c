/**
 * How times are shown across the app, a choice of this computer (Settings › "Times"; kept in
 * localStorage): local time in the locale's words with the zone ("17 May 2024, 10:30 CEST",
 * the default), or UTC in ISO 8601 with a 24-hour clock ("2024-05-17 08:30 UTC"). Read by
 * `formatLocalDateTime` and `formatLocalDate`; a ref, so what shows times follows a change.
 * The catalog's date filter is in UTC days either way (said beside its pickers).
 */
import { ref } from 'vue';
import { readStored, writeStored } from '../local-storage';

export const TIME_DISPLAYS = ['local', 'iso-utc'] as const;
export type TimeDisplay = (typeof TIME_DISPLAYS)[number];

const KEY = 'eo.timeDisplay';

export const timeDisplay = ref<TimeDisplay>(readStored(KEY) === 'iso-utc' ? 'iso-utc' : 'local');

export function setTimeDisplay(choice: TimeDisplay): void {
  timeDisplay.value = choice;
  writeStored(KEY, choice);
}

/** An instant (ms) as "2024-05-17 08:30 UTC", or the day alone: "2024-05-17". */
export function isoUtc(t: number, withTime: boolean): string {
  const s = new Date(t).toISOString();
  return withTime ? `${s.slice(0, 10)} ${s.slice(11, 16)} UTC` : s.slice(0, 10);
}
