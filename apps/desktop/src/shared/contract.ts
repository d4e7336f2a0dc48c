/**
 * THE typed contract between the renderer and the backend (Electron main or browser mode).
 * Every method is `input schema -> output schema`; every event has a payload schema. Main and the
 * browser-mode server validate every argument with these schemas before anything runs, and the
 * tests validate every output. No Node, no DOM here: the renderer, the preload and the backend
 * all import this file.
 */
import { CatalogSearchRequest, IdempotencyPolicy, ServiceDialect, SyncResource } from '@eo/domain';
import { z } from 'zod';
import { workEvents, workMethods } from './work';

/** Methods that take no argument accept `undefined` or `{}` (IPC and JSON bodies differ). */
const none = z.object({}).strict().optional();

/** The mirrored resources: defined once, in @eo/domain (the sync engine's order). */
export { SyncResource };

export const AppInfo = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  /** The reference service the app started itself because none was configured. */
  embeddedServiceUrl: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const MirrorSettings = z.object({
  orders: z.boolean(),
  orderItems: z.boolean(),
  aois: z.boolean(),
  indices: z.boolean(),
  catalog: z.enum(['all', 'saved-searches', 'none']),
});
export type MirrorSettings = z.infer<typeof MirrorSettings>;

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
    mirror: MirrorSettings.partial().strict().optional(),
    syncIntervalMinutes: z.number().int().min(0).max(1440).optional(),
    tileUrl: tileUrl.nullable().optional(),
    idempotency: IdempotencyPolicy.optional(),
    autoSendOrders: z.boolean().optional(),
  })
  .strict();
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

export const Connectivity = z.object({
  state: z.enum(['online', 'offline', 'unauthorized', 'unconfigured']),
  checkedAt: z.string(),
  /** Why, when not online, in words a user can act on. */
  message: z.string().optional(),
});
export type Connectivity = z.infer<typeof Connectivity>;

export const SyncError = z.object({
  code: z.string(),
  message: z.string(),
  /** What to do about it. */
  hint: z.string(),
});
export type SyncError = z.infer<typeof SyncError>;

export const SyncStatus = z.object({
  running: z.boolean(),
  resources: z.array(
    z.object({
      resource: SyncResource,
      lastCompleteAt: z.string().nullable(),
      lastError: SyncError.nullable(),
      /** Records of this resource in the mirror. */
      count: z.number().int().min(0),
      /** Records of the last pass that differ from the spec (`eo status --drift` lists them). */
      drift: z.number().int().min(0).optional(),
      /** Mirrored records with fields that could not be indexed (filters on them never match). */
      notIndexed: z.number().int().min(0).optional(),
      /** The last pass ended with fewer records than the service's total (nothing was removed). */
      incomplete: z.boolean().optional(),
    }),
  ),
  /**
   * Services other than the configured one whose data the mirror holds (synced before the
   * service URL changed; kept until `mirror.clear`): origins, or `embedded` for the built-in
   * demo service. `lastCompleteAt` only ever counts syncs against the configured service.
   */
  otherServices: z.array(z.string()).optional(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/** The service's catalog search body (spec 4.3), reused as is: same semantics offline. */
export const CatalogQuery = CatalogSearchRequest;
export type CatalogQuery = z.output<typeof CatalogSearchRequest>;
export type CatalogQueryInput = z.input<typeof CatalogSearchRequest>;

/** One row of the virtual list: the few fields it shows, not the whole record. */
export const CatalogRow = z.object({
  id: z.string(),
  collection: z.string().nullable(),
  datetime: z.string().nullable(),
  cloudCover: z.number().nullable(),
  offNadir: z.number().nullable(),
  gsd: z.number().nullable(),
  platform: z.string().nullable(),
  /** [west, south, east, north] */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
});
export type CatalogRow = z.infer<typeof CatalogRow>;

export const CatalogPage = z.object({
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
  items: z.array(CatalogRow),
});
export type CatalogPage = z.infer<typeof CatalogPage>;

/**
 * Footprints of ALL matches of a query (limit/offset ignored), compact for 100k records:
 * `rings[i]` is the outer ring of `ids[i]` as flat [lon, lat, lon, lat, ...]. Multi-polygons
 * contribute their largest polygon; records without geometry, their bbox.
 */
export const Footprints = z
  .object({
    ids: z.array(z.string()),
    rings: z.array(z.array(z.number())),
  })
  .refine((f) => f.ids.length === f.rings.length, 'ids and rings have the same length');
export type Footprints = z.infer<typeof Footprints>;

/** The full stored record (tolerant: unknown keys kept). */
export const CatalogRecordView = z.looseObject({ id: z.string() });
export type CatalogRecordView = z.infer<typeof CatalogRecordView>;

const id = z.string().trim().min(1).max(200);

export const SavedSearch = z.object({
  id: z.string(),
  name: z.string(),
  query: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedSearch = z.infer<typeof SavedSearch>;

export const SavedSearchInput = z
  .object({
    /** Given: replace that saved search; absent: create one. */
    id: id.optional(),
    name: z.string().trim().min(1).max(200),
    query: CatalogSearchRequest,
  })
  .strict();
export type SavedSearchInput = z.input<typeof SavedSearchInput>;

const tileIndex = z.number().int().min(0);
export const TileRequest = z
  .object({ z: z.number().int().min(0).max(22), x: tileIndex, y: tileIndex })
  .strict()
  .superRefine((t, ctx) => {
    const n = 2 ** t.z;
    if (t.x >= n)
      ctx.addIssue({ code: 'custom', path: ['x'], message: `x must be below ${n} at z=${t.z}` });
    if (t.y >= n)
      ctx.addIssue({ code: 'custom', path: ['y'], message: `y must be below ${n} at z=${t.z}` });
  });

export const contract = {
  'app.info': { input: none, output: AppInfo },
  'settings.get': { input: none, output: Settings },
  'settings.update': { input: SettingsUpdate, output: Settings },
  'mirror.clear': { input: none, output: z.object({ cleared: z.literal(true) }) },
  'connectivity.check': { input: none, output: Connectivity },
  'sync.run': {
    input: z
      .object({ resources: z.array(SyncResource).min(1).optional() })
      .strict()
      .optional(),
    output: SyncStatus,
  },
  'sync.cancel': { input: none, output: SyncStatus },
  'sync.status': { input: none, output: SyncStatus },
  'catalog.search': { input: CatalogQuery, output: CatalogPage },
  'catalog.footprints': { input: CatalogQuery, output: Footprints },
  'catalog.get': {
    input: z.object({ id }).strict(),
    output: CatalogRecordView.nullable(),
  },
  'savedSearches.list': { input: none, output: z.array(SavedSearch) },
  'savedSearches.save': { input: SavedSearchInput, output: SavedSearch },
  'savedSearches.remove': {
    input: z.object({ id }).strict(),
    output: z.object({ removed: z.boolean() }),
  },
  'tiles.get': {
    input: TileRequest,
    output: z.object({ contentType: z.string(), base64: z.string() }).nullable(),
  },
  ...workMethods,
} as const;

export const events = {
  'sync.progress': z.object({
    resource: SyncResource,
    seen: z.number().int().min(0),
    total: z.number().int().min(0).nullable(),
  }),
  'sync.finished': SyncStatus,
  'connectivity.changed': Connectivity,
  'outbox.changed': z.object({ pending: z.number().int().min(0) }),
  ...workEvents,
} as const;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type Input<M extends Method> = z.input<Contract[M]['input']>;
export type ParsedInput<M extends Method> = z.output<Contract[M]['input']>;
export type Output<M extends Method> = z.output<Contract[M]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const METHODS = Object.keys(contract) as Method[];
export const EVENT_NAMES = Object.keys(events) as EventName[];
export { METHOD_NAMES } from './names';

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

export type ContractErrorCode =
  | 'invalid_argument'
  | 'unknown_method'
  | 'not_configured'
  | 'offline'
  | 'unauthorized'
  | 'busy'
  /** The operation does not apply in the record's current state (e.g. cancel a sent entry). */
  | 'conflict'
  | 'internal';

export interface ContractIssue {
  /** Dotted path into the argument (`query.eo:cloud_cover.lt`, `bbox.3`); empty for the whole. */
  readonly path: string;
  readonly message: string;
}

/** The one error type that crosses the boundary (as plain JSON, rebuilt on the other side). */
export class ContractError extends Error {
  readonly code: ContractErrorCode;
  readonly details: { issues?: ContractIssue[] } | undefined;
  constructor(code: ContractErrorCode, message: string, details?: { issues?: ContractIssue[] }) {
    super(message);
    this.name = 'ContractError';
    this.code = code;
    this.details = details;
  }
  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
  static from(e: SerializedError): ContractError {
    return new ContractError(e.code, e.message, e.details);
  }
}

export const SerializedError = z.object({
  code: z.enum([
    'invalid_argument',
    'unknown_method',
    'not_configured',
    'offline',
    'unauthorized',
    'busy',
    'conflict',
    'internal',
  ]),
  message: z.string(),
  details: z
    .object({
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    })
    .optional(),
});
export type SerializedError = z.infer<typeof SerializedError>;

/** What crosses IPC / HTTP: errors travel as data, since Electron IPC drops error classes. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

export function issuesOf(error: z.ZodError): ContractIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Validate a raw argument for `method`; throws ContractError (never passes bad input on). */
export function parseInput<M extends Method>(method: unknown, raw: unknown): ParsedInput<M> {
  if (!isMethod(method)) {
    throw new ContractError('unknown_method', `unknown method: ${String(method).slice(0, 100)}`);
  }
  const parsed = contract[method].input.safeParse(raw);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    throw new ContractError(
      'invalid_argument',
      `invalid argument for ${method}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
      { issues },
    );
  }
  return parsed.data as ParsedInput<M>;
}

/** Rebuild an error from the other side of the boundary; anything unexpected is `internal`. */
export function toContractError(e: unknown): ContractError {
  if (e instanceof ContractError) return e;
  const parsed = SerializedError.safeParse(e);
  if (parsed.success) return ContractError.from(parsed.data);
  return new ContractError('internal', e instanceof Error ? e.message : 'internal error');
}

/**
 * What the renderer gets: from the preload (`window.eo`) or the HTTP bridge in browser mode.
 * `call` rejects with a ContractError. Note: `window.eo.call` itself rejects with the plain
 * SerializedError data (contextBridge drops error classes); wrap it with `withContractErrors`.
 */
export interface Bridge {
  call<M extends Method>(
    method: M,
    ...input: undefined extends Input<M> ? [Input<M>?] : [Input<M>]
  ): Promise<Output<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** Wraps a bridge whose rejections are plain data (the preload's) so they become ContractErrors. */
export function withContractErrors(raw: Bridge): Bridge {
  return {
    call: ((method: Method, input?: unknown) =>
      (raw.call as (m: Method, i?: unknown) => Promise<unknown>)(method, input).catch(
        (e: unknown) => {
          throw toContractError(e);
        },
      )) as Bridge['call'],
    on: (event, listener) => raw.on(event, listener),
  };
}
