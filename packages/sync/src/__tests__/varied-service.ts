/**
 * A small service on 127.0.0.1 that answers the mirror's lists the way a real service may:
 * whatever records a test gives it (odd timestamps, numbers as strings, numeric ids, null
 * details), and pagination it can bend (a `total` larger than what it lists). Only the reads a
 * sync makes: orders, order items, AOIs and their assets, indices, catalog search.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEoClient, type EoClient } from '@eo/api-client';
import { createDriftInbox, type DriftInbox } from '../pull/drift';

export interface VariedData {
  orders: unknown[];
  orderItems: unknown[];
  aois: unknown[];
  /** Assets per AOI id. */
  assets: Record<string, unknown[]>;
  indices: unknown[];
  catalogs: unknown[];
}

export interface VariedService {
  readonly url: string;
  readonly key: string;
  /** What it lists; tests change it between syncs. */
  data: VariedData;
  /** Added to every list's `pagination.total` (records it counts but never lists). */
  extraTotal: number;
  /** Most records per page, whatever `limit` asked (the asked limit is still echoed). */
  pageCap: number;
  /** Answers every page from the start of the list, with no total (a service ignoring offset). */
  ignoreOffset: boolean;
  close(): Promise<void>;
}

export const emptyData = (): VariedData => ({
  orders: [],
  orderItems: [],
  aois: [],
  assets: {},
  indices: [],
  catalogs: [],
});

const KEY = 'eok_varied';

function idOf(r: unknown): string {
  const o = (r ?? {}) as Record<string, unknown>;
  return String(o.id ?? o.aoi_id);
}

export async function startVariedService(data: VariedData = emptyData()): Promise<VariedService> {
  const svc = { data, extraTotal: 0, pageCap: Infinity, ignoreOffset: false };
  const page = (key: string, list: unknown[], limit: number, asked: number) => {
    const offset = svc.ignoreOffset ? 0 : asked;
    return {
      [key]: list.slice(offset, offset + Math.min(limit, svc.pageCap)),
      pagination: svc.ignoreOffset
        ? { limit }
        : { limit, offset, total: list.length + svc.extraTotal },
    };
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== KEY)
        return send(401, { error: { code: 'unauthorized', message: 'bad key', details: null } });
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const q = url.searchParams;
      const limit = Number(q.get('limit') ?? 100);
      const offset = Number(q.get('offset') ?? 0);
      const d = svc.data;
      const p = url.pathname;
      if (req.method === 'GET' && p === '/v0/orders')
        return send(200, page('orders', d.orders, limit, offset));
      if (req.method === 'GET' && p === '/v0/order-items') {
        const ids = q.get('ids')?.split(',');
        const list = ids ? d.orderItems.filter((r) => ids.includes(idOf(r))) : d.orderItems;
        return send(200, page('order_items', list, limit, offset));
      }
      if (req.method === 'GET' && p === '/v0/aois')
        return send(200, page('aois', d.aois, limit, offset));
      if (req.method === 'GET' && p === '/v0/indices')
        return send(200, page('indices', d.indices, limit, offset));
      const assets = /^\/v0\/aois\/([^/]+)\/assets$/.exec(p);
      if (req.method === 'GET' && assets) {
        const list = d.assets[decodeURIComponent(assets[1]!)];
        if (!list) return send(404, { error: { code: 'not_found', message: 'no such AOI' } });
        return send(200, page('assets', list, limit, offset));
      }
      if (req.method === 'POST' && p === '/v0/catalogs/search') {
        const b = JSON.parse(body || '{}') as { limit?: number; offset?: number; ids?: string[] };
        const list = b.ids ? d.catalogs.filter((r) => b.ids!.includes(idOf(r))) : d.catalogs;
        return send(200, page('catalogs', list, b.limit ?? 100, b.offset ?? 0));
      }
      send(404, { error: { code: 'not_found', message: `${req.method} ${p}`, details: null } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(svc, {
    url: `http://127.0.0.1:${port}`,
    key: KEY,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/**
 * A client of `service` whose schema drift reports go to an inbox for the engine (`drift`), one
 * attempt a call (the service answers at once or not at all).
 */
export function driftingClient(service: VariedService): { client: EoClient; drift: DriftInbox } {
  const drift = createDriftInbox();
  const client = createEoClient({
    baseUrl: service.url,
    apiKey: service.key,
    onSchemaDrift: drift.onSchemaDrift,
    retry: { maxAttempts: 1 },
  });
  return { client, drift };
}
