/**
 * The command line, parsed once with node:util parseArgs over every option the CLI knows; each
 * command then says which of them apply to it (`checkOptions`). Flag values are converted here,
 * with errors that name the flag.
 */
import { parseArgs } from 'node:util';
import type { FieldProblem } from '../outbox/index';

export const OPTIONS = {
  db: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  dialect: { type: 'string' },
  format: { type: 'string' },
  progress: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'string' },
  file: { type: 'string' },
  bbox: { type: 'string' },
  datetime: { type: 'string' },
  collections: { type: 'string' },
  'cloud-max': { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  sort: { type: 'string', multiple: true },
  resources: { type: 'string' },
  'catalog-file': { type: 'string' },
  'archive-file': { type: 'string' },
  'page-size': { type: 'string' },
  'batch-records': { type: 'string' },
  prefetch: { type: 'boolean' },
  'read-ahead': { type: 'string' },
  state: { type: 'string' },
  'remote-id': { type: 'string' },
  idempotency: { type: 'string' },
  drift: { type: 'boolean' },
  full: { type: 'boolean' },
  refresh: { type: 'boolean' },
  imagery: { type: 'string' },
  'imagery-budget': { type: 'string' },
  out: { type: 'string' },
  wkt: { type: 'boolean' },
  'no-wkt': { type: 'boolean' },
  as: { type: 'string' },
  'name-field': { type: 'string' },
  merge: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  pick: { type: 'string' },
  area: { type: 'string' },
  aoi: { type: 'string' },
  search: { type: 'string' },
  pixels: { type: 'boolean' },
  budget: { type: 'string' },
  rebuild: { type: 'boolean' },
  ids: { type: 'string' },
  'confirm-orders': { type: 'string' },
  around: { type: 'string' },
  radius: { type: 'string' },
  resolution: { type: 'string' },
  kind: { type: 'string' },
  resend: { type: 'boolean' },
  'download-id': { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;

/** Each option's parsed value, read from its declaration in `OPTIONS` (one list of flags). */
type ValueOf<O> = O extends { type: 'boolean' }
  ? boolean
  : O extends { multiple: true }
    ? string[]
    : string;

export type OptionValues = {
  readonly [K in OptionName]?: ValueOf<(typeof OPTIONS)[K]> | undefined;
};

export interface CommandLine {
  readonly values: OptionValues;
  readonly positionals: readonly string[];
  /** The options that were actually written on the command line. */
  readonly given: ReadonlySet<OptionName>;
}

/** Bad usage: exit code 2, the message, field problems if any, and the command's usage. */
export class UsageError extends Error {
  readonly details: readonly FieldProblem[];
  constructor(message: string, details: readonly FieldProblem[] = []) {
    super(message);
    this.name = 'UsageError';
    this.details = details;
  }
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const given = new Set<OptionName>();
  for (const t of parsed.tokens) if (t.kind === 'option') given.add(t.name as OptionName);
  return { values: parsed.values, positionals: parsed.positionals, given };
}

/** Options given that the command does not take are refused rather than silently ignored. */
export function checkOptions(line: CommandLine, allowed: readonly OptionName[]): void {
  const extra = [...line.given].filter((o) => !allowed.includes(o));
  if (extra.length > 0)
    throw new UsageError(`${extra.map((o) => `--${o}`).join(', ')} does not apply here`);
}

/** `a,b, c` → ['a', 'b', 'c'] (empty items dropped). */
export function listFlag(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function numberFlag(value: string, name: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n))
    throw new UsageError(`--${name}: ${JSON.stringify(value)} is not a number`);
  return n;
}

export function intFlag(value: string, name: string, min: number, max?: number): number {
  const n = numberFlag(value, name);
  if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
    const range = max === undefined ? `at least ${min}` : `${min}..${max}`;
    throw new UsageError(`--${name} must be an integer ${range}, got ${JSON.stringify(value)}`);
  }
  return n;
}
