/**
 * The verdict of a benchmark, done the same way by every bench: each figure with its target,
 * ✅ or ❌, one summary line, and exit code 1 when a target is missed, so `pnpm bench` fails
 * when a figure does. A smoke run (`--smoke`, tiny sizes, what CI runs) prints the same lines
 * but never fails on a target: its sizes say nothing about them.
 */

export interface Check {
  /** What was measured, e.g. "engine / floor records/s". */
  readonly what: string;
  readonly value: number;
  /** The figure must be at least this... */
  readonly atLeast?: number;
  /** ...or at most this. */
  readonly atMost?: number;
  /** Printed after numbers, e.g. "ms", "×", "%". */
  readonly unit?: string;
  /** Decimals printed (default 2). */
  readonly digits?: number;
}

export const isSmoke = (argv: readonly string[] = process.argv): boolean =>
  argv.includes('--smoke');

export function checkMet(c: Check): boolean {
  if (!Number.isFinite(c.value)) return false;
  if (c.atLeast !== undefined && !(c.value >= c.atLeast)) return false;
  if (c.atMost !== undefined && !(c.value <= c.atMost)) return false;
  return true;
}

const num = (n: number, digits: number, unit: string | undefined) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}${unit ? ` ${unit}` : ''}`;

/** One line: `✅ what: value (target ≥ x)`, or `·  what: value (no target)` for a reported figure. */
export function formatCheck(c: Check): string {
  const d = c.digits ?? 2;
  const targets = [
    c.atLeast !== undefined ? `≥ ${num(c.atLeast, d, c.unit)}` : undefined,
    c.atMost !== undefined ? `≤ ${num(c.atMost, d, c.unit)}` : undefined,
  ].filter(Boolean);
  if (targets.length === 0) return `·  ${c.what}: ${num(c.value, d, c.unit)} (no target)`;
  return `${checkMet(c) ? '✅' : '❌'} ${c.what}: ${num(c.value, d, c.unit)} (target ${targets.join(' and ')})`;
}

/**
 * Prints every check and a summary for `bench`; returns whether all were met. A miss sets
 * `process.exitCode = 1` unless `smoke`. Call once, at the end of the bench.
 */
export function reportVerdict(
  bench: string,
  checks: readonly Check[],
  options: { readonly smoke?: boolean; readonly write?: (line: string) => void } = {},
): boolean {
  const smoke = options.smoke ?? isSmoke();
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  for (const c of checks) write(`  ${formatCheck(c)}`);
  const missed = checks.filter((c) => !checkMet(c));
  if (smoke) {
    write(
      `${bench}: smoke run, targets not enforced (${missed.length} of ${checks.length} missed at these sizes)`,
    );
    return missed.length === 0;
  }
  if (missed.length === 0) {
    write(`${bench}: every target met (${checks.length})`);
    return true;
  }
  write(
    `${bench}: MISSED ${missed.length} of ${checks.length} targets: ${missed.map((c) => c.what).join('; ')}`,
  );
  process.exitCode = 1;
  return false;
}

/** Median of samples (the middle one, or the mean of the two middle ones). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
