/**
 * RFC 4180 CSV: CRLF line ends, a field quoted when it holds a comma, quote, CR or LF (quotes
 * doubled inside). Text stays UTF-8 as given; null is an empty field.
 */
import type { Scalar } from './feature';

export function csvField(value: Scalar | undefined): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<Scalar | undefined>>,
): string {
  return [headers, ...rows].map((r) => `${r.map(csvField).join(',')}\r\n`).join('');
}
