/**
 * The desktop store's JSON values, read through schemas (as mattermost/desktop reads its
 * persisted config): a value written by an older or a newer version of the app, or damaged on
 * disk, reads as what can be kept of it, never as a lie to its type. Settings are read field by
 * field: a field that does not parse takes its default and the others stay. Lists keep the
 * entries that parse. What was dropped is named (field names and counts, never values) to
 * `onDropped`, so a support log can say why a setting went back to its default.
 *
 * Settings carry a version. Version 0 is what versions before it wrote (no `version` field):
 * the same fields, so it needs no migration; a migration goes in `MIGRATIONS` when a field
 * changes meaning. A version newer than this app's is read field by field like any other.
 */
import { IdempotencyPolicy, ImageryChoice, SavedArchiveSearch, ServiceDialect } from '@eo/domain';
import { z } from 'zod';
import { ImageryBudgetMb, MirrorSettings } from '../shared/contract';
import type { MirrorSourceState, StoredBasketEntry, StoredSettings } from './local-store';

export const SETTINGS_VERSION = 1;

/** Each stored settings field's schema (what `settings.update` accepts, read back). */
const SETTINGS_FIELDS = {
  serviceUrl: z.string().max(2048).nullable(),
  dialect: ServiceDialect,
  mirror: MirrorSettings.partial(),
  syncIntervalMinutes: z.number().int().min(0).max(1440),
  tileUrl: z.string().max(2048).nullable(),
  idempotency: IdempotencyPolicy,
  autoSendOrders: z.boolean(),
  imagery: ImageryChoice,
  imageryBudgetMb: ImageryBudgetMb,
  workOffline: z.boolean(),
} satisfies { [K in keyof StoredSettings]: z.ZodType };

/** Stored settings of version N (index) to version N + 1. */
const MIGRATIONS: ReadonlyArray<(v: Record<string, unknown>) => Record<string, unknown>> = [
  (v0) => v0, // version 0 had the same fields, unversioned
];

export type OnDropped = (what: string) => void;

function parseJson(json: string, what: string, onDropped: OnDropped): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    onDropped(`${what}: not JSON`);
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stored settings over the defaults, field by field. */
export function readSettings(
  json: string,
  defaults: StoredSettings,
  onDropped: OnDropped,
): StoredSettings {
  const value = parseJson(json, 'settings', onDropped);
  if (!isRecord(value)) {
    if (value !== undefined) onDropped('settings: not an object');
    return structuredClone(defaults);
  }
  let stored = value;
  const version = typeof stored.version === 'number' ? stored.version : 0;
  for (let v = version; v < SETTINGS_VERSION; v++) stored = MIGRATIONS[v]!(stored);
  const out: Record<string, unknown> = { ...structuredClone(defaults) };
  for (const [key, schema] of Object.entries(SETTINGS_FIELDS)) {
    const value = stored[key];
    if (value === undefined) continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) out[key] = parsed.data;
    else onDropped(`settings.${key}: not readable, its default is used`);
  }
  out.mirror = { ...defaults.mirror, ...(out.mirror as Partial<MirrorSettings>) };
  return out as unknown as StoredSettings;
}

/** What `readSettings` reads: the settings with this app's version. */
export function writeSettings(s: StoredSettings): string {
  return JSON.stringify({ version: SETTINGS_VERSION, ...s });
}

/** A stored value of one schema; `fallback` when absent from JSON or not readable. */
export function readValue<T>(
  json: string,
  schema: z.ZodType<T>,
  what: string,
  fallback: T,
  onDropped: OnDropped,
): T {
  const value = parseJson(json, what, onDropped);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  if (value !== undefined) onDropped(`${what}: not readable`);
  return fallback;
}

/** The entries of a stored list that parse; the others are named by count. */
export function readList<T>(
  json: string,
  schema: z.ZodType<T>,
  what: string,
  onDropped: OnDropped,
): T[] {
  const value = parseJson(json, what, onDropped);
  if (!Array.isArray(value)) {
    if (value !== undefined) onDropped(`${what}: not a list`);
    return [];
  }
  const kept: T[] = [];
  for (const entry of value) {
    const parsed = schema.safeParse(entry);
    if (parsed.success) kept.push(parsed.data);
  }
  if (kept.length < value.length)
    onDropped(`${what}: ${value.length - kept.length} of ${value.length} entries not readable`);
  return kept;
}

export const KeyBindingValue = z.string().max(2048).nullable();

/** The most services a keyring keeps a key for (an origin each). */
export const KEYRING_MAX_SERVICES = 64;
const KeyringKey = z.string().min(1).max(1024);

/**
 * The API keys kept at rest (in the secrets store, encrypted where it can: see keyring.ts), one
 * per service (an origin, or `embedded`), and one entered before any service was set.
 */
export const KeyringValue = z
  .object({
    version: z.literal(1),
    keys: z
      .record(z.string().min(1).max(2048), KeyringKey)
      .refine((k) => Object.keys(k).length <= KEYRING_MAX_SERVICES, 'too many services'),
    unbound: KeyringKey.nullable(),
  })
  .strict();
export type KeyringValue = z.infer<typeof KeyringValue>;

export const MirrorSourceValue: z.ZodType<MirrorSourceState> = z.object({
  sources: z.array(z.string().max(2048)).max(1000),
  completedFor: z.record(z.string(), z.string().max(2048)),
  queuedFor: z.record(z.string().max(400), z.string().max(2048)).optional(),
});

/**
 * A basket entry. The `archive` part came later (optional: entries saved before it read as
 * catalog records, unchanged); one whose archive part is unreadable is dropped, as any.
 */
export const BasketEntryValue: z.ZodType<StoredBasketEntry> = z.object({
  id: z.string().min(1).max(400),
  addedAt: z.string().max(64),
  archive: z
    .object({
      platform: z.string().max(400).nullable(),
      collection: z.string().max(400).nullable(),
      datetime: z.string().max(64).nullable(),
      footprint: z.array(z.number().finite()).max(20_000).nullable(),
    })
    .optional(),
});

/** A saved catalog search's query (checked by dispatch when saved; a JSON object here). */
export const SavedQueryValue = z.record(z.string(), z.unknown());

/** A saved archive search's body, as the domain defines it. */
export const ArchiveSearchValue = SavedArchiveSearch.shape.search;
