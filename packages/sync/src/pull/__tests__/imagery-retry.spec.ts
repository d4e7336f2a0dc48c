/**
 * A picture whose request fails on the network is tried once more at once (a pooled keep-alive
 * connection the far end closed as it was reused fails through no fault of the link); a second
 * failure is counted. Real reference service on 127.0.0.1 behind the fault proxy, whose `reset`
 * destroys the connection before forwarding.
 */
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import { tempDir } from '../../db/__tests__/temp';
import { openMirror } from '../../mirror/mirror';
import { startService, type TestService } from '../../outbox/__tests__/service';

let service: TestService;
let proxy: FaultProxy;
/** Quicklook URLs (path) to reset, and how many times each. */
const resets = new Map<string, number>();
const tmp = tempDir('imagery-retry');

beforeAll(async () => {
  service = await startService();
  proxy = await startFaultProxy(service.url, (req) => {
    const p = req.url.split('?')[0]!;
    const left = resets.get(p) ?? 0;
    if (!p.startsWith('/quicklooks/') || left === 0) return 'pass';
    resets.set(p, left - 1);
    return 'reset';
  });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
  tmp.remove();
});

async function mirrorWithRecords(name: string) {
  const mirror = openMirror(path.join(tmp.dir, `${name}.db`));
  await mirror.sync(createEoClient({ baseUrl: proxy.url, apiKey: service.key }), {
    resources: ['catalogs'],
  });
  const paths = mirror.catalog
    .search({ limit: 100 })
    .catalogs.map((r) => `/quicklooks/catalog/${encodeURIComponent(r.id)}/thumbnail.png`);
  expect(paths.length).toBeGreaterThan(1);
  return { mirror, paths };
}

const options = { serviceUrl: '', budgetBytes: 1024 ** 3 };

describe('imagery: a network error', () => {
  it('is tried once more: one reset per picture still fetches them all', async () => {
    const { mirror, paths } = await mirrorWithRecords('once');
    try {
      for (const p of paths) resets.set(p, 1);
      const before = proxy.counts.reset;
      const report = await mirror.imagery.sync({ ...options, serviceUrl: proxy.url });
      expect(proxy.counts.reset - before).toBe(paths.length);
      expect(report).toMatchObject({ fetched: paths.length, failed: 0 });
    } finally {
      mirror.close();
    }
  });

  it('failing twice is counted, and the next run fetches it', async () => {
    const { mirror, paths } = await mirrorWithRecords('twice');
    try {
      resets.set(paths[0]!, 2);
      const report = await mirror.imagery.sync({ ...options, serviceUrl: proxy.url });
      expect(report).toMatchObject({ fetched: paths.length - 1, failed: 1 });
      expect(report.lastError).toContain(paths[0]!);
      const next = await mirror.imagery.sync({ ...options, serviceUrl: proxy.url });
      expect(next).toMatchObject({ fetched: 1, failed: 0 });
    } finally {
      mirror.close();
    }
  });
});
