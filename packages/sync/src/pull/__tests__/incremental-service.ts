/**
 * What incremental sync tests need on top of service.ts: a client that counts the records and
 * bytes each response carried, and catalog changes made with the service's own writers.
 */
import { createEoClient, type EoClient } from '@eo/api-client';
import { makeCatalogDeleter, makeCatalogUpserter, type CatalogRecordOut } from '@eo/catalog-store';
import { DEMO } from '@eo/fixtures';
import { catalogRecordAsSent } from '@eo/reference-service';
import type { TestService } from './service';

export interface Transfer {
  requests: number;
  bytes: number;
  /** Records received per list key (`catalogs`, `aois`, ...). */
  records: Record<string, number>;
  /** Request bodies and query strings, to see which filters were sent. */
  asked: string[];
}

/**
 * A client whose responses are counted as they arrive (body bytes, records per list).
 * `refuse(url, body)` answers a request with a 400 instead of sending it (a service without a
 * filter).
 */
export function meteredClient(
  service: TestService,
  refuse: (url: URL, body: string | null) => boolean = () => false,
): { client: EoClient; transfer: Transfer; reset(): void } {
  const transfer: Transfer = { requests: 0, bytes: 0, records: {}, asked: [] };
  const client = createEoClient({
    baseUrl: service.url,
    apiKey: service.key,
    retry: { maxAttempts: 1 },
    fetch: async (input, init) => {
      const url = new URL(input);
      const body = typeof init?.body === 'string' ? init.body : null;
      transfer.asked.push(`${url.pathname}${url.search} ${body ?? ''}`);
      if (refuse(url, body))
        return new Response(
          JSON.stringify({ error: { code: 'validation_failed', message: 'unknown filter' } }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        );
      const res = await fetch(input, init);
      const text = await res.text();
      transfer.requests++;
      transfer.bytes += Buffer.byteLength(text);
      try {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        for (const [k, v] of Object.entries(parsed))
          if (Array.isArray(v)) transfer.records[k] = (transfer.records[k] ?? 0) + v.length;
      } catch {
        // not JSON: counted in bytes only
      }
      return new Response(text, { status: res.status, headers: res.headers });
    },
  });
  return {
    client,
    transfer,
    reset() {
      Object.assign(transfer, { requests: 0, bytes: 0, records: {}, asked: [] });
    },
  };
}

/** The service's catalog records of the demo org, as stored. */
/** The service's catalog as it sends it (quicklook hrefs signed as in its answers). */
export function serviceCatalog(service: TestService): CatalogRecordOut[] {
  const { app } = service.server;
  return (
    app.ctx.sqlite
      .prepare('SELECT record_json FROM catalog_records WHERE org_id = ? ORDER BY id')
      .pluck()
      .all(DEMO.orgId) as string[]
  ).map((j) => JSON.parse(catalogRecordAsSent(app, j)) as CatalogRecordOut);
}

/** Rewrites records on the service as a change would: new cloud cover, `updated` = `at`. */
export function changeCatalogRecords(
  service: TestService,
  records: readonly CatalogRecordOut[],
  at: string,
): void {
  const sqlite = service.server.app.ctx.sqlite;
  const upsert = makeCatalogUpserter(sqlite);
  // The stored record (its storage hrefs), not the signed form `serviceCatalog` returns.
  const stored = sqlite.prepare(
    `SELECT order_id AS orderId, order_item_id AS orderItemId, record_json AS json
     FROM catalog_records WHERE id = ?`,
  );
  sqlite.transaction(() => {
    for (const { id } of records) {
      const { json, ...link } = stored.get(id) as {
        orderId: string | null;
        orderItemId: string | null;
        json: string;
      };
      const r = JSON.parse(json) as CatalogRecordOut;
      const properties = { ...r.details.properties, 'eo:cloud_cover': 1.5, updated: at };
      upsert({ ...r, details: { ...r.details, properties } }, { orgId: DEMO.orgId, ...link });
    }
  })();
}

/**
 * Moves every record's `updated` back by `ms`, as if the catalog had been made that long ago
 * (the seed stamps its records "now"; a test of later changes needs them in the past, since a
 * pass believes no change time past its own start).
 */
export function ageCatalogRecords(service: TestService, ms: number): void {
  const sqlite = service.server.app.ctx.sqlite;
  const upsert = makeCatalogUpserter(sqlite);
  const rows = sqlite
    .prepare(
      `SELECT order_id AS orderId, order_item_id AS orderItemId, record_json AS json
       FROM catalog_records WHERE org_id = ?`,
    )
    .all(DEMO.orgId) as Array<{ orderId: string | null; orderItemId: string | null; json: string }>;
  sqlite.transaction(() => {
    for (const { json, ...link } of rows) {
      const r = JSON.parse(json) as CatalogRecordOut;
      const updated = Date.parse(String(r.details.properties.updated));
      if (Number.isNaN(updated)) continue;
      const properties = { ...r.details.properties, updated: new Date(updated - ms).toISOString() };
      upsert({ ...r, details: { ...r.details, properties } }, { orgId: DEMO.orgId, ...link });
    }
  })();
}

export function deleteCatalogRecords(service: TestService, ids: readonly string[]): void {
  makeCatalogDeleter(service.server.app.ctx.sqlite)(ids);
}
