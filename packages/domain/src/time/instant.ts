/**
 * An instant is an integer count of microseconds since 1970-01-01T00:00:00Z.
 *
 * Microseconds, because one of the spec's layouts carries them (`.ffffff`), and a JS `Date`
 * (milliseconds) would lose them. A double holds every microsecond exactly while |µs| < 2^53: 1684-07-28 .. 2255-06-05.
 * Strings may carry any year 0001..9999; outside that range an instant is still exact to the
 * second (whole seconds are multiples of 64 µs, and doubles up to year 9999 are spaced at most
 * 32 µs apart), so sentinels such as `0001-01-01T00:00:00Z` round-trip, but sub-second digits
 * there may be rounded.
 */
export type Instant = number;

/** A calendar date with no time or zone: the task and asset date layouts. */
export interface CalendarDate {
  readonly year: number;
  readonly month: number; // 1..12
  readonly day: number; // 1..31
}

/** Thrown (or returned by `tryParse`) when a string is not in the expected layout. */
export class TimestampFormatError extends Error {
  constructor(
    readonly layout: string,
    readonly input: string,
    readonly reason: string,
  ) {
    super(`${JSON.stringify(input)} is not a valid ${layout}: ${reason}`);
    this.name = 'TimestampFormatError';
  }
}

const MICROS_PER_MS = 1000;
const MICROS_PER_DAY = 86_400_000_000;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Reason the date is impossible, or undefined when it is a real calendar date. */
export function invalidDateReason(year: number, month: number, day: number): string | undefined {
  if (year < 1 || year > 9999) return `year ${year} is outside 0001..9999`;
  if (month < 1 || month > 12) return `month ${month} is outside 01..12`;
  const max = daysInMonth(year, month);
  if (day < 1 || day > max) return `day ${day} is outside 01..${max} for that month`;
  return undefined;
}

export function invalidTimeReason(
  hour: number,
  minute: number,
  second: number,
): string | undefined {
  if (hour > 23) return `hour ${hour} is outside 00..23`;
  if (minute > 59) return `minute ${minute} is outside 00..59`;
  if (second > 59) return `second ${second} is outside 00..59 (leap seconds are not supported)`;
  return undefined;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (exact for any year). */
export function daysFromCivil(year: number, month: number, day: number): number {
  // Howard Hinnant's algorithm: no Date object, so years 1..99 are not remapped to 19xx.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): CalendarDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

export interface InstantParts extends CalendarDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly micro: number; // 0..999999
}

export function instantFromParts(p: InstantParts, offsetMinutes = 0): Instant {
  const days = daysFromCivil(p.year, p.month, p.day);
  const secondsOfDay = p.hour * 3600 + p.minute * 60 + p.second - offsetMinutes * 60;
  return days * MICROS_PER_DAY + secondsOfDay * 1_000_000 + p.micro;
}

export function partsFromInstant(instant: Instant): InstantParts {
  // Integral, not only *safe* integers: the codecs parse years 0001..9999, whose instants reach
  // -6.2e16 and 2.5e17 (beyond 2^53). Requiring a safe integer made `format(parse(s))` throw for
  // valid strings such as `0001-01-01T00:00:00Z` (Go's zero time) or `9999-12-31T23:59:59Z`.
  if (!Number.isInteger(instant)) {
    throw new RangeError(`instant must be an integer number of microseconds, got ${instant}`);
  }
  let days = Math.floor(instant / MICROS_PER_DAY);
  let rest = instant - days * MICROS_PER_DAY;
  // Beyond 2^53 the division may round across a day boundary; the subtraction above is exact.
  if (rest < 0) {
    days -= 1;
    rest += MICROS_PER_DAY;
  } else if (rest >= MICROS_PER_DAY) {
    days += 1;
    rest -= MICROS_PER_DAY;
  }
  const hour = Math.floor(rest / 3_600_000_000);
  rest -= hour * 3_600_000_000;
  const minute = Math.floor(rest / 60_000_000);
  rest -= minute * 60_000_000;
  const second = Math.floor(rest / 1_000_000);
  const micro = rest - second * 1_000_000;
  return { ...civilFromDays(days), hour, minute, second, micro };
}

export function instantFromDate(date: Date): Instant {
  return date.getTime() * MICROS_PER_MS;
}

/** To a JS Date (drops sub-millisecond precision). */
export function instantToDate(instant: Instant): Date {
  return new Date(Math.floor(instant / MICROS_PER_MS));
}

export function instantFromCalendarDate(d: CalendarDate): Instant {
  return daysFromCivil(d.year, d.month, d.day) * MICROS_PER_DAY;
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
