/**
 * Settings: the service, its key (write-only), what the mirror keeps, the sync interval, tiles,
 * and how creates are sent.
 */
import { IdempotencyPolicy, ImageryChoice, ServiceDialect } from '@eo/domain';
import { z } from 'zod';
import { none } from '../../shared/contract/fields';

export const MirrorSettings = z.object({
  orders: z.boolean(),
  orderItems: z.boolean(),
  aois: z.boolean(),
  indices: z.boolean(),
  catalog: z.enum(['all', 'saved-searches', 'none']),
});
export type MirrorSettings = z.infer<typeof MirrorSettings>;

/** The quicklooks the sync keeps offline: `off`, `thumbnails`, or `overviews` (with thumbnails). */
export { ImageryChoice };
/** Megabytes the mirrored quicklooks may take (least recently viewed evicted first). */
export const ImageryBudgetMb = z.number().int().min(1).max(1_000_000);

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (
        (u.protocol === 'http:' || u.protocol === 'https:') &&
        u.username === '' &&
        u.password === ''
      );
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without user:password@');

const tileUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (s) => ['{z}', '{x}', '{y}'].every((p) => s.includes(p)),
    'a tile URL contains {z}, {x} and {y}',
  )
  .refine((s) => /^https?:\/\//.test(s), 'a tile URL starts with http:// or https://');

/**
 * How the API key is kept at rest, so Settings can say what is true: `os-keychain` (Electron,
 * encrypted with the OS keychain through safeStorage), `obfuscated` (Electron on Linux without a
 * keyring: safeStorage's `basic_text`), `owner-only-file` (browser mode: plain text in a file
 * only this user can read, mode 0600), `this-session-only` (nothing can keep it encrypted: it
 * is held in memory until the app quits).
 */
export const KeyStorage = z.enum([
  'os-keychain',
  'obfuscated',
  'owner-only-file',
  'this-session-only',
]);
export type KeyStorage = z.infer<typeof KeyStorage>;

export const Settings = z.object({
  serviceUrl: z.string().nullable(),
  /**
   * The configured service's profile (`spec` | `provider-v0`, @eo/domain `dialect.ts`): its
   * request shapes, values and reads. The embedded service always speaks `spec`.
   */
  dialect: ServiceDialect,
  /** Whether a key is stored. The key itself is write-only: it never leaves the backend. */
  apiKeySet: z.boolean(),
  /** Where a key entered now is kept (whether one is set or not). */
  apiKeyStorage: KeyStorage,
  /**
   * The service a key entered now is kept for: the service URL's origin, `embedded` (the
   * built-in demo service), or null (no service yet: the key goes to the first one set).
   */
  apiKeyFor: z.string().nullable(),
  /** The services (origins, or `embedded`) a key is kept for; never the keys themselves. */
  keptKeys: z.array(z.string()).max(64),
  mirror: MirrorSettings,
  /** 0 = manual sync only. */
  syncIntervalMinutes: z.number().int().min(0).max(1440),
  tileUrl: z.string().nullable(),
  /**
   * Does the service honour Idempotency-Key? `auto`: only when it says so; `honoured` /
   * `ignored` override it. Decides whether a create in doubt may be sent again.
   */
  idempotency: IdempotencyPolicy,
  /**
   * Send queued orders on reconnect without asking. Default false: orders cost money, so the
   * auto-flush leaves them (and deliveries of their items) queued for "Submit all".
   */
  autoSendOrders: z.boolean(),
  /** Quicklooks mirrored after the records (default `thumbnails`). */
  imagery: ImageryChoice,
  imageryBudgetMb: ImageryBudgetMb,
  /**
   * "Work offline": nothing goes to the service (no connectivity checks, auto-flush, follow-up
   * reads, syncs, quotes or "Submit all") until it is turned off. Default false.
   */
  workOffline: z.boolean(),
  /** Bytes used by the mirror, the tile cache and settings on disk. */
  storageBytes: z.number().int().min(0),
});
export type Settings = z.infer<typeof Settings>;

export const SettingsUpdate = z
  .object({
    serviceUrl: httpUrl.nullable().optional(),
    dialect: ServiceDialect.optional(),
    /** A new key, or null to forget the stored one. */
    apiKey: z.string().trim().min(1).max(1024).nullable().optional(),
    /** A service (one of `keptKeys`) whose kept key is forgotten. */
    forgetKey: z.string().min(1).max(2048).optional(),
    mirror: MirrorSettings.partial().strict().optional(),
    syncIntervalMinutes: z.number().int().min(0).max(1440).optional(),
    tileUrl: tileUrl.nullable().optional(),
    idempotency: IdempotencyPolicy.optional(),
    autoSendOrders: z.boolean().optional(),
    imagery: ImageryChoice.optional(),
    imageryBudgetMb: ImageryBudgetMb.optional(),
    workOffline: z.boolean().optional(),
  })
  .strict();
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

export const settingsMethods = {
  'settings.get': { input: none, output: Settings },
  'settings.update': { input: SettingsUpdate, output: Settings },
} as const;
