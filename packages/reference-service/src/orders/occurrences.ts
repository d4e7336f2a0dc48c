/**
 * Acquisition windows of an order item (our rules; the spec shows only the fields):
 *
 * - TASKING (recurrence ONCE): one window, [start_date, end_date].
 * - RECURRING: start_date..end_date is the monitoring period; it is cut into consecutive
 *   windows of the recurrence period (DAILY 1 day, WEEKLY 7 days, MONTHLY 1 calendar month,
 *   day of month clamped, e.g. Jan 31 -> Feb 29), starting at start_date; the item has the
 *   first `no_of_occurrences` of them, the last one clipped to end_date. Asking for more
 *   windows than fit in the period is a 400 on `no_of_occurrences`.
 * - ARCHIVE: no window.
 */
import {
  daysInMonth,
  instantFromParts,
  partsFromInstant,
  type Instant,
  type Recurrence,
} from '@eo/domain';

const DAY_US = 86_400_000_000;

export interface Window {
  readonly start: Instant;
  readonly end: Instant;
}

/** `start` moved by `k` recurrence periods. */
export function addPeriods(start: Instant, recurrence: Recurrence, k: number): Instant {
  switch (recurrence) {
    case 'ONCE':
      return start;
    case 'DAILY':
      return start + k * DAY_US;
    case 'WEEKLY':
      return start + k * 7 * DAY_US;
    case 'MONTHLY': {
      const p = partsFromInstant(start);
      const monthIndex = p.month - 1 + k;
      const year = p.year + Math.floor(monthIndex / 12);
      const month = (((monthIndex % 12) + 12) % 12) + 1;
      return instantFromParts({
        ...p,
        year,
        month,
        day: Math.min(p.day, daysInMonth(year, month)),
      });
    }
  }
}

export type WindowsResult = { ok: true; windows: Window[] } | { ok: false; fit: number };

/** The windows of a recurring item, or how many fit when `count` do not. */
export function recurringWindows(
  start: Instant,
  end: Instant,
  recurrence: Exclude<Recurrence, 'ONCE'>,
  count: number,
): WindowsResult {
  const windows: Window[] = [];
  for (let k = 0; k < count; k++) {
    const s = addPeriods(start, recurrence, k);
    if (s >= end) return { ok: false, fit: k };
    windows.push({ start: s, end: Math.min(addPeriods(start, recurrence, k + 1), end) });
  }
  return { ok: true, windows };
}

export const windowDays = (w: Window): number => (w.end - w.start) / DAY_US;
