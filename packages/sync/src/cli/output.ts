/** Output on stdout: JSON for scripts, plain aligned tables for people. */
import type { OutputStream } from './io';

export function writeJson(out: OutputStream, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Longest cell before it is shortened with an ellipsis (ids and error messages get long). */
const MAX_CELL = 48;

function cell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** Columns padded to their widest cell, two spaces apart; a header row first. */
export function writeTable(
  out: OutputStream,
  headers: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
): void {
  const cells = [headers.map(cell), ...rows.map((r) => r.map(cell))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  for (const r of cells) {
    const line = r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
    out.write(`${line.trimEnd()}\n`);
  }
}

/** Microseconds since the epoch as an ISO instant to the second ('' when unknown). */
export function isoFromUs(us: number | null | undefined): string {
  if (us === null || us === undefined) return '';
  return new Date(Math.floor(us / 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
