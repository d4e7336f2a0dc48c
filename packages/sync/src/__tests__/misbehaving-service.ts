/**
 * The reference service behind the misbehaving proxy of `@eo/bench-kit`, for the tests of a
 * mirror that must stay true while the service moves, repeats and misbehaves: a client through
 * the proxy (what the engine syncs with), one straight to the service (what the mirror is
 * compared with), and the service's own database for changes made while a pass reads.
 */
import { createEoClient, type EoClient, type EoClientOptions } from '@eo/api-client';
import { startMisbehavingProxy, type MisbehavingProxy, type ProxiedRequest } from '@eo/bench-kit';
import { makeCatalogDeleter, makeCatalogInserter, type CatalogRecordOut } from '@eo/catalog-store';
import { DEMO } from '@eo/fixtures';
import type Database from 'better-sqlite3';
import { startService, type TestService } from '../pull/__tests__/service';
import { createDriftInbox, type DriftInbox } from '../pull/drift';

export interface MisbehavingService {
  readonly service: TestService;
  readonly proxy: MisbehavingProxy;
  /** The service's own database (changes made while a pass reads). */
  readonly sqlite: Database.Database;
  /** A client through the proxy, reporting drift to `drift`. */
  client(options?: Partial<EoClientOptions>): { client: EoClient; drift: DriftInbox };
  /** A client straight to the service (never through the proxy). */
  readonly direct: EoClient;
  close(): Promise<void>;
}

export async function startMisbehavingService(): Promise<MisbehavingService> {
  const service = await startService();
  const proxy = await startMisbehavingProxy(service.url);
  return {
    service,
    proxy,
    sqlite: service.server.app.ctx.sqlite,
    client(options = {}) {
      const drift = createDriftInbox();
      const client = createEoClient({
        baseUrl: proxy.url,
        apiKey: service.key,
        onSchemaDrift: drift.onSchemaDrift,
        retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
        ...options,
      });
      return { client, drift };
    },
    direct: createEoClient({ baseUrl: service.url, apiKey: service.key }),
    async close() {
      await proxy.close();
      await service.close();
    },
  };
}

/** A list page request: GET `path` or POST `path` (searches), whatever its offset. */
export const isList = (path: string) => (r: ProxiedRequest) => r.path === path;

/**
 * `count` new catalog records at the head of the catalog's default order (acquired and updated
 * now), copies of a demo record under new ids; returns their ids.
 */
export function insertNewestCatalogRecords(
  sqlite: Database.Database,
  count: number,
  tag: string,
): string[] {
  const base = JSON.parse(
    sqlite
      .prepare('SELECT record_json FROM catalog_records WHERE org_id = ? ORDER BY id LIMIT 1')
      .pluck()
      .get(DEMO.orgId) as string,
  ) as CatalogRecordOut;
  const insert = makeCatalogInserter(sqlite);
  const now = new Date().toISOString();
  const ids: string[] = [];
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `${tag}-${i}`;
      const details = base.details as { properties: Record<string, unknown> };
      insert(
        {
          ...base,
          id,
          task_id: null,
          updated_at: now,
          details: {
            ...base.details,
            id: `${tag}-item-${i}`,
            properties: { ...details.properties, datetime: now, updated: now },
          },
        } as CatalogRecordOut,
        { orgId: DEMO.orgId, orderId: null, orderItemId: null },
      );
      ids.push(id);
    }
  })();
  return ids;
}

/** Deletes catalog records from the service (as if someone removed them meanwhile). */
export function deleteCatalogRecords(sqlite: Database.Database, ids: readonly string[]): void {
  makeCatalogDeleter(sqlite)(ids);
}

/** The ids of the service's catalog in its default order (newest acquisition first). */
export function catalogIdsInOrder(sqlite: Database.Database): string[] {
  return sqlite
    .prepare('SELECT id FROM catalog_records WHERE org_id = ? ORDER BY datetime_us DESC, id ASC')
    .pluck()
    .all(DEMO.orgId) as string[];
}
