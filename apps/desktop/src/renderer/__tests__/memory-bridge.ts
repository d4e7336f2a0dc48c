/**
 * Test support: the contract implemented in memory, for store and component tests in happy-dom.
 * Not a mock: every argument goes through the contract's own `parseInput` (bad input is
 * rejected exactly as main rejects it), catalog search is the domain's `runCatalogSearch` over
 * records from `@eo/domain/testing`, and outputs are checked against the contract's output
 * schemas. Tests script the rest: failures, events, connectivity.
 */
import {
  CLOUD_COVER_BINS,
  cloudCoverBin,
  runCatalogSearch,
  type CatalogRecord,
  type CatalogSearchRequest,
} from '@eo/domain';
import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { ContractError, encodeFootprints, joinedIds } from '../../shared/contract';
import { createMemoryBasket, type MemoryBasket } from './memory-basket';
import { createMemoryWork, type MemoryWork } from './memory-work';
import {
  contract,
  parseInput,
  type Bridge,
  type CatalogRow,
  type Connectivity,
  type EventName,
  type EventPayload,
  type ExportedFile,
  type ExportedRaster,
  type FilePreview,
  type RasterExportRequest,
  type LinkView,
  type OfflineRasterList,
  type OfflineTakeView,
  type FileExportRequest,
  type Method,
  type Output,
  type ArchiveSceneRow,
  type SavedArchiveSearchView,
  type SavedSearch,
  type Settings,
  type SyncStatus,
} from '../../shared/contract';

export interface MemoryBridge extends Bridge {
  /** Every call, in order, with its validated input. */
  readonly calls: Array<{ method: Method; input: unknown }>;
  readonly records: CatalogRecord[];
  settings: Settings;
  /** `app.info`'s built-in service URL (null: none started). */
  embeddedServiceUrl: string | null;
  connectivity: Connectivity;
  syncStatus: SyncStatus;
  saved: SavedSearch[];
  /** Saved archive searches and the scenes kept per search (as a sync left them). */
  readonly archive: {
    searches: SavedArchiveSearchView[];
    scenes: Map<string, ArchiveSceneRow[]>;
  };
  /** Part 2: orders, AOIs, indices, created records and the outbox (memory-work.ts). */
  readonly work: MemoryWork;
  /** The basket (memory-basket.ts). */
  readonly basket: MemoryBasket;
  /**
   * `files.preview`'s answers by file name (the backend's reading of real files is tested in
   * src/backend/__tests__/files-preview.spec.ts); a file not listed is `invalid_argument`.
   */
  readonly filePreviews: Map<string, FilePreview>;
  /** `rasters.takes`' answer. */
  offlineTakes: OfflineTakeView[];
  /** `rasters.list`'s answer (none stored by default). */
  offlineRasters: OfflineRasterList;
  /** `rasters.link`'s answer (not measured by default). */
  link: LinkView | null;
  /**
   * `files.export`'s answer (the backend's writing of real files is tested in
   * src/backend/__tests__/files-export.spec.ts); by default a small file, as browser mode
   * gets it (no `savedTo`).
   */
  exportAnswer: (input: FileExportRequest) => ExportedFile;
  /**
   * `rasters.export`'s answer (the backend's GeoTIFFs are judged by GDAL in
   * src/backend/__tests__/raster-export.spec.ts); by default as browser mode gets it.
   */
  rasterExportAnswer: (input: RasterExportRequest) => ExportedRaster;
  /** Make the next calls of `method` fail with this error (until cleared with null). */
  failWith(method: Method, error: ContractError | null): void;
  /** Deliver an event to the subscribers, as main would. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Number of live subscriptions per event. */
  listenerCount(event: EventName): number;
}

export function defaultSettings(): Settings {
  return {
    serviceUrl: 'https://imagery.example.org',
    dialect: 'spec',
    apiKeySet: true,
    apiKeyStorage: 'os-keychain',
    apiKeyFor: 'https://imagery.example.org',
    keptKeys: ['https://imagery.example.org'],
    mirror: { orders: true, orderItems: true, aois: true, indices: true, catalog: 'all' },
    syncIntervalMinutes: 15,
    tileUrl: null,
    idempotency: 'auto',
    autoSendOrders: false,
    imagery: 'thumbnails',
    imageryBudgetMb: 1024,
    workOffline: false,
    storageBytes: 5 * 1024 * 1024,
  };
}

function rowOf(r: CatalogRecord): CatalogRow {
  const p = r.details.properties;
  const b = r.details.bbox;
  return {
    id: r.id,
    collection: r.details.collection ?? null,
    datetime: p.datetime ?? null,
    cloudCover: p['eo:cloud_cover'] ?? null,
    offNadir: p['view:off_nadir'] ?? null,
    gsd: p.gsd ?? null,
    platform: p.platform ?? null,
    bbox: b && b.length >= 4 ? [b[0]!, b[1]!, b[2]!, b[3]!] : null,
  };
}

function ringOf(r: CatalogRecord): number[] {
  const g = r.details.geometry;
  const ring =
    g?.type === 'Polygon'
      ? g.coordinates[0]
      : g?.type === 'MultiPolygon'
        ? g.coordinates[0]?.[0]
        : undefined;
  return (ring ?? []).flatMap((p) => [p[0] ?? 0, p[1] ?? 0]);
}

/** The backend's binary footprints answer for rings given as flat [lon, lat, ...] lists. */
export function encodeRings(ids: readonly string[], rings: ReadonlyArray<readonly number[]>) {
  const offsets = new Uint32Array(ids.length + 1);
  rings.forEach((r, i) => (offsets[i + 1] = offsets[i]! + r.length / 2));
  return encodeFootprints({
    ...joinedIds(ids),
    offsets,
    coords: Float32Array.from(rings.flat()),
  });
}

export function createMemoryBridge(opts: { records?: number; seed?: number } = {}): MemoryBridge {
  const rng = createRng(opts.seed ?? 7);
  const records: CatalogRecord[] = [];
  for (let i = 0; i < (opts.records ?? 40); i++) records.push(buildCatalogRecord({}, { rng }));
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const failures = new Map<Method, ContractError>();
  const calls: Array<{ method: Method; input: unknown }> = [];
  let savedSeq = 0;

  const search = (q: CatalogSearchRequest) =>
    runCatalogSearch(
      records.map((record) => ({ record, links: { orderId: null, orderItemId: null } })),
      q,
    );

  const bridge: MemoryBridge = {
    calls,
    offlineTakes: [],
    offlineRasters: { rasters: [], bytes: 0 },
    link: null,
    records,
    settings: defaultSettings(),
    embeddedServiceUrl: null,
    connectivity: {
      state: 'online',
      checkedAt: '2024-05-17T08:00:00.000Z',
      since: '2024-05-17T08:00:00.000Z',
    },
    syncStatus: {
      running: false,
      resources: [
        {
          resource: 'orders',
          lastCompleteAt: '2024-05-17T07:00:00.000Z',
          lastError: null,
          count: 12,
        },
        { resource: 'catalogs', lastCompleteAt: null, lastError: null, count: records.length },
      ],
    },
    saved: [],
    archive: { searches: [], scenes: new Map() },
    filePreviews: new Map(),
    rasterExportAnswer: (input) => ({
      fileName:
        input.what === 'index' ? 'test-site-2024-06-12-ndvi.tif' : 'test-site-2024-06-12.tif',
      mediaType: 'image/tiff',
      bytes: 2_400_000,
      exportId: `export-${calls.filter((c) => c.method === 'rasters.export').length}`,
    }),
    exportAnswer: ({ format }) => ({
      fileName: `eo-export.${format}`,
      mediaType: 'application/octet-stream',
      features: 2,
      bytes: 4,
      base64: btoa('data'),
    }),
    get work() {
      return part2.work;
    },
    get basket() {
      return basket;
    },

    failWith(method, error) {
      if (error) failures.set(method, error);
      else failures.delete(method);
    },

    emit(event, payload) {
      for (const fn of listeners.get(event) ?? []) fn(payload);
    },

    listenerCount(event) {
      return listeners.get(event)?.size ?? 0;
    },

    on(event, fn) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const f = fn as (p: unknown) => void;
      set.add(f);
      return () => set.delete(f);
    },

    call: (async (method: Method, raw?: unknown) => {
      const input = parseInput(method, raw);
      calls.push({ method, input });
      await Promise.resolve(); // answers are asynchronous, as over IPC
      const failure = failures.get(method);
      if (failure) throw failure;
      const out = await handle(method, input);
      return contract[method].output.parse(out) as Output<typeof method>;
    }) as Bridge['call'],
  };

  function handle(method: Method, input: unknown): unknown {
    switch (method) {
      case 'app.info':
        return {
          version: '0.0.0-test',
          mode: 'browser',
          embeddedServiceUrl: bridge.embeddedServiceUrl,
        };
      case 'app.firstScreenShown':
        return { noted: true };
      case 'settings.get':
        return bridge.settings;
      case 'settings.update': {
        const u = input as Record<string, unknown>;
        const s = { ...bridge.settings, mirror: { ...bridge.settings.mirror } };
        // Keys kept per origin, as the backend's keyring (key-binding.ts) keeps them.
        if ('serviceUrl' in u) {
          s.serviceUrl = (u['serviceUrl'] as string | null) ?? null;
          s.apiKeyFor = s.serviceUrl === null ? null : new URL(s.serviceUrl).origin;
        }
        const kept = new Set(s.keptKeys);
        if ('apiKey' in u && s.apiKeyFor !== null) {
          if (u['apiKey'] === null) kept.delete(s.apiKeyFor);
          else kept.add(s.apiKeyFor);
        }
        if (typeof u['forgetKey'] === 'string') kept.delete(u['forgetKey']);
        s.keptKeys = [...kept];
        s.apiKeySet = s.apiKeyFor !== null && kept.has(s.apiKeyFor);
        if (u['mirror']) Object.assign(s.mirror, u['mirror']);
        if (typeof u['syncIntervalMinutes'] === 'number') {
          s.syncIntervalMinutes = u['syncIntervalMinutes'];
        }
        if ('tileUrl' in u) s.tileUrl = (u['tileUrl'] as string | null) ?? null;
        if (u['idempotency']) s.idempotency = u['idempotency'] as Settings['idempotency'];
        if (typeof u['autoSendOrders'] === 'boolean') s.autoSendOrders = u['autoSendOrders'];
        if (typeof u['workOffline'] === 'boolean') s.workOffline = u['workOffline'];
        bridge.settings = s;
        return s;
      }
      case 'mirror.clear':
        records.length = 0;
        bridge.settings = { ...bridge.settings, storageBytes: 0 };
        bridge.syncStatus = {
          running: false,
          resources: bridge.syncStatus.resources.map((r) => ({
            ...r,
            count: 0,
            lastCompleteAt: null,
          })),
        };
        return { cleared: true };
      case 'connectivity.check':
        return bridge.connectivity;
      case 'connectivity.networkChanged':
        // The backend's debounced check is tested there (network-signals.spec.ts).
        return { scheduled: true };
      case 'sync.run':
        bridge.syncStatus = { ...bridge.syncStatus, running: true };
        return bridge.syncStatus;
      case 'sync.cancel':
        bridge.syncStatus = { ...bridge.syncStatus, running: false };
        return bridge.syncStatus;
      case 'sync.status':
        return bridge.syncStatus;
      case 'catalog.search': {
        const q = input as CatalogSearchRequest;
        const r = search(q);
        return { total: r.total, limit: q.limit, offset: q.offset, items: r.catalogs.map(rowOf) };
      }
      case 'catalog.footprints': {
        const q = input as CatalogSearchRequest;
        const all = search({ ...q, limit: 1000, offset: 0 }).catalogs;
        return encodeRings(
          all.map((r) => r.id),
          all.map(ringOf),
        );
      }
      case 'catalog.cloudHistogram': {
        // As the mirror: every match of the query less its own cloud-cover condition.
        const q = input as CatalogSearchRequest;
        const { 'eo:cloud_cover': _cloud, ...query } = q.query ?? {};
        const all = search({ ...q, query, limit: 1000, offset: 0 }).catalogs;
        const bins = new Array<number>(CLOUD_COVER_BINS).fill(0);
        let withoutCloud = 0;
        for (const r of all) {
          const cloud = r.details.properties['eo:cloud_cover'];
          if (typeof cloud === 'number') bins[cloudCoverBin(cloud)]!++;
          else withoutCloud++;
        }
        return { bins, total: all.length, withoutCloud };
      }
      case 'catalog.get':
        return records.find((r) => r.id === (input as { id: string }).id) ?? null;
      case 'savedSearches.list':
        return bridge.saved;
      case 'savedSearches.save': {
        const i = input as { id?: string; name: string; query: Record<string, unknown> };
        const now = '2024-05-17T09:00:00.000Z';
        const s: SavedSearch = {
          id: i.id ?? `s${++savedSeq}`,
          name: i.name,
          query: i.query,
          createdAt: now,
          updatedAt: now,
        };
        bridge.saved = [...bridge.saved.filter((x) => x.id !== s.id), s];
        return s;
      }
      case 'savedSearches.remove': {
        const before = bridge.saved.length;
        bridge.saved = bridge.saved.filter((x) => x.id !== (input as { id: string }).id);
        return { removed: bridge.saved.length < before };
      }
      case 'archive.searches':
        return bridge.archive.searches;
      case 'archive.save': {
        const i = input as Omit<
          SavedArchiveSearchView,
          'createdAt' | 'updatedAt' | 'pass' | 'id'
        > & {
          id?: string;
        };
        const now = '2024-05-17T09:00:00.000Z';
        const s: SavedArchiveSearchView = {
          id: i.id ?? `a${++savedSeq}`,
          name: i.name,
          search: i.search,
          maxScenes: i.maxScenes,
          createdAt: now,
          updatedAt: now,
          pass: null,
        };
        const list = bridge.archive.searches.filter((x) => x.id !== s.id);
        bridge.archive.searches = [...list, s].sort((a, b) => a.name.localeCompare(b.name));
        return s;
      }
      case 'archive.remove': {
        const before = bridge.archive.searches.length;
        const { id } = input as { id: string };
        bridge.archive.searches = bridge.archive.searches.filter((x) => x.id !== id);
        return { removed: bridge.archive.searches.length < before };
      }
      case 'archive.scenes':
        return bridge.archive.scenes.get((input as { searchId: string }).searchId) ?? [];
      case 'tiles.get':
        return null;
      case 'files.preview': {
        const { name } = input as { name: string };
        const preview = bridge.filePreviews.get(name);
        if (!preview)
          throw new ContractError('invalid_argument', `${name}: cannot read it as a field file`, {
            issues: [{ path: 'file', message: 'cannot read it as a field file' }],
          });
        return preview;
      }
      case 'files.typedArea':
        // The backend's own reader (pure): what the typed text gives there, it gives here.
        return import('@eo/formats')
          .then(({ readTypedArea }) => readTypedArea((input as { text: string }).text))
          .then((r) => ({
            kind: r.kind,
            area: r.area,
            repairs: [...r.repairs],
            problem: r.problem,
          }));
      case 'basket.list':
      case 'basket.add':
      case 'basket.addArchive':
      case 'basket.remove':
      case 'basket.clear':
      case 'catalog.ordered':
      case 'catalog.scenes':
        return basket.handle(method, input);
      case 'files.export':
        return bridge.exportAnswer(input as FileExportRequest);
      // A finished job's results package, as browser mode gets it (the backend's reading of the
      // service's package: src/backend/__tests__/job-results.spec.ts).
      case 'jobs.results': {
        const { jobId } = input as { jobId: string };
        const json = JSON.stringify({ job_id: jobId, tasks: [] });
        return {
          fileName: `job-${jobId}-results.json`,
          mediaType: 'application/json',
          features: 0,
          bytes: json.length,
          base64: btoa(json),
        };
      }
      // Offline rasters, takes and the link as the test sets them.
      case 'rasters.list':
        return bridge.offlineRasters;
      case 'rasters.remove': {
        const { id } = input as { id: string };
        const before = bridge.offlineRasters.rasters;
        const rasters = before.filter((r) => r.id !== id);
        bridge.offlineRasters = { ...bridge.offlineRasters, rasters };
        return { removed: rasters.length < before.length };
      }
      case 'rasters.take':
        return { key: `take-${calls.filter((c) => c.method === 'rasters.take').length}` };
      case 'rasters.takes':
        return { takes: bridge.offlineTakes };
      case 'rasters.cancel':
        return { cancelled: true };
      case 'rasters.export':
        return bridge.rasterExportAnswer(input as RasterExportRequest);
      case 'rasters.pause':
        return { paused: true };
      case 'rasters.resume':
        return { key: `resume-${(input as { id: string }).id}` };
      case 'rasters.link':
        return { link: bridge.link };
      // Field packages (the backend's: src/backend/__tests__/field-packages.spec.ts).
      case 'packages.plan':
        return {
          label: 'AOI Maize north',
          records: { aois: 1, catalogs: 12 },
          recordBytes: 40_000,
          pictures: { thumbnail: 12, overview: 0, indexMap: 0, bytes: 200_000 },
          leftOut: { pictures: 0, bytes: 0 },
          estimatedBytes: 300_000,
          budgetBytes: 64 * 1024 * 1024,
        };
      case 'packages.share':
        return {
          fileName: 'eo-package-aoi-maize-north-20261128.gpkg',
          mediaType: 'application/geopackage+sqlite3',
          features: 13,
          bytes: 4,
          base64: btoa('gpkg'),
        };
      case 'packages.open':
        return {
          packageId: '00000000-0000-4000-8000-000000000000',
          label: 'AOI Maize north',
          records: {
            aois: { added: 1, updated: 0, kept: 0 },
            catalogs: { added: 10, updated: 1, kept: 1 },
          },
          pictures: { added: 12, updated: 0, kept: 0 },
          rasters: { added: 0, updated: 0, kept: 0, unkept: 0 },
        };
      default: {
        const out = part2.handle(method, input);
        // As the backend: a queued create takes what it consumed out of the basket.
        if (method === 'outbox.enqueue') basket.consume(input as never);
        if (method === 'outbox.enqueueAll') {
          for (const c of (input as { creates: unknown[] }).creates) basket.consume(c as never);
        }
        return out;
      }
    }
  }
  const part2 = createMemoryWork((event, payload) => bridge.emit(event, payload));
  const basket = createMemoryBasket(
    records,
    (event, payload) => bridge.emit(event, payload),
    (searchId) => bridge.archive.scenes.get(searchId) ?? [],
  );

  return bridge;
}
