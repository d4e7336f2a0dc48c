/** Column helpers shared by every table: timestamps are integer microseconds since epoch. */
import { customType, integer } from 'drizzle-orm/sqlite-core';

/** An instant stored as integer microseconds (sortable, range-filterable, exact). */
export const instantUs = (name: string) => integer(name);

/** A JSON value stored as text. */
export const json = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'text',
    toDriver: (v) => JSON.stringify(v),
    fromDriver: (v) => JSON.parse(v) as T,
  })(name);
