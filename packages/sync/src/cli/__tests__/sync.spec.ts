/** `eo sync` and `eo status` in-process against the real service, on real database files. */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy } from '../../__tests__/fault-proxy';
import { mirrorSnapshot, serviceSnapshot } from '../../__tests__/mirror-snapshot';
import { RESOURCES } from '../../pull/engine';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
const tmp = tempDir('cli-sync');
let n = 0;
const freshDb = () => path.join(tmp.dir, `mirror-${n++}.db`);

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

function readMirror(file: string) {
  const sqlite = new Database(file, { readonly: true });
  try {
    return mirrorSnapshot(sqlite);
  } finally {
    sqlite.close();
  }
}

describe('eo sync', () => {
  it('settings from the environment; mirrors the service; JSON on a non-terminal stdout, silent stderr', async () => {
    const db = freshDb();
    const r = await eo(['sync'], {
      env: { EO_URL: service.url, EO_API_KEY: service.key, EO_DB: db },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      resources: Array<{ resource: string; state: string }>;
    };
    expect(report.resources.map((s) => [s.resource, s.state])).toEqual(
      RESOURCES.map((name) => [name, 'complete']),
    );
    const direct = createEoClient({ baseUrl: service.url, apiKey: service.key });
    expect(readMirror(db)).toEqual(await serviceSnapshot(direct));
    // The catalog records it stored as text were packed before it ended.
    const sqlite = new Database(db, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT count(*) FROM catalog_records').pluck().get()).toBeGreaterThan(
        0,
      );
      expect(sqlite.prepare('SELECT count(*) FROM catalog_unpacked').pluck().get()).toBe(0);
    } finally {
      sqlite.close();
    }
  });

  it('progress: a bar on a terminal stderr, lines on request, nothing on stdout', async () => {
    const db = freshDb();
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const bar = await eo(
      ['sync', ...flags, '--resources', 'indices,catalogs', '--page-size', '50'],
      {
        tty: { stderr: true },
      },
    );
    expect(bar.code).toBe(0);
    expect(bar.stderr).toMatch(/\rcatalogs +\[#+-*\] \d+\/\d+/);
    expect(bar.stderr).toMatch(/catalogs +\[#{24}\] \d+\/\d+ done\n/);
    expect(bar.stdout).not.toMatch(/[\r#]/);

    // --full: the catalogs were complete a moment ago (a plain run would leave them alone).
    const lines = await eo([
      'sync',
      ...flags,
      '--resources',
      'catalogs',
      '--full',
      '--progress',
      'lines',
    ]);
    expect(lines.code).toBe(0);
    expect(lines.stderr).not.toContain('\r');
    expect(lines.stderr.trim().split('\n').at(-1)).toMatch(/^catalogs \d+\/\d+ done$/);
  });

  it('leaves resources completed just now alone, and says so when progress is shown', async () => {
    const db = freshDb();
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    expect((await eo(['sync', ...flags, '--resources', 'indices'])).code).toBe(0);
    const again = await eo(['sync', ...flags, '--resources', 'indices', '--progress', 'lines']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      'indices: complete within the last 10 min, not walked again (--refresh walks them)\n',
    );
  });

  it('--resources picks resources (kebab-case names too); the others stay unsynced', async () => {
    const db = freshDb();
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const r = await eo(['sync', ...flags, '--resources', 'order-items,indices']);
    expect(r.code).toBe(0);
    const status = await eo(['status', '--db', db]);
    const views = (
      JSON.parse(status.stdout) as { resources: Array<{ resource: string; state: string }> }
    ).resources;
    expect(Object.fromEntries(views.map((v) => [v.resource, v.state]))).toEqual({
      orders: 'never',
      orderItems: 'complete',
      aois: 'never',
      assets: 'never',
      indices: 'complete',
      catalogs: 'never',
    });
  });

  it('a failing sync exits 1, says where it stopped and never prints the key; the next one resumes there', async () => {
    const db = freshDb();
    let failing = true;
    // The service refuses catalog pages from offset 100 on (a 400 is not retried: fails at once).
    const proxy = await startFaultProxy(service.url, (req) => {
      const offset = req.body ? (JSON.parse(req.body) as { offset?: number }).offset : undefined;
      return failing && (offset ?? 0) >= 100 ? { status: 400 } : 'pass';
    });
    try {
      const flags = ['--db', db, '--url', proxy.url, '--key', service.key, '--format', 'table'];
      const args = ['sync', ...flags, '--page-size', '50', '--batch-records', '50'];
      const failed = await eo(args);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('eo sync: catalogs failed (api 400)');
      expect(failed.stderr).toContain('the next sync resumes catalogs at list 0, offset 100');
      for (const out of [failed.stdout, failed.stderr]) expect(out).not.toContain(service.key);

      const status = await eo(['status', '--db', db, '--format', 'table']);
      expect(status.stdout).toMatch(
        /catalogs +unfinished +full +100\/\d+ +list 0, offset 100 .*api: POST/,
      );

      failing = false;
      const resumed = await eo(args);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(/^RESOURCE +STATE/);
      expect(resumed.stdout).toMatch(/catalogs +complete/);
    } finally {
      await proxy.close();
    }
  });

  it('a key the service refuses: exit 1 with the 401, the key masked wherever it would appear', async () => {
    const key = 'eok_this-key-is-not-known-to-the-service';
    const r = await eo(
      ['sync', '--db', freshDb(), '--url', service.url, '--resources', 'indices'],
      {
        env: { EO_API_KEY: key },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/indices failed \(api 401\)/);
    expect(r.stdout + r.stderr).not.toContain(key);
    // A flag value echoed in a usage error is masked too.
    const bad = await eo(['sync', '--key', key, '--page-size', key]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('[redacted]');
    expect(bad.stderr).not.toContain(key);
  });

  it('usage errors exit 2 with the usage before touching the database or the network', async () => {
    const db = freshDb();
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const unknown = await eo(['sync', ...flags, '--resources', 'orders,nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--resources: unknown nope (known: orders, orderItems');
    expect(unknown.stderr).toContain('usage: eo sync');
    const page = await eo(['sync', ...flags, '--page-size', '0']);
    expect(page.code).toBe(2);
    expect(page.stderr).toContain('--page-size must be an integer 1..1000');
    const noUrl = await eo(['sync', '--db', db], { env: { EO_API_KEY: service.key } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('pass --url URL or set EO_URL');
    // The key never goes in clear text across the network: plain http only to loopback.
    for (const url of ['http://eo.example.com', 'http://10.0.0.5:8080']) {
      for (const settings of [
        { argv: ['--url', url], env: { EO_API_KEY: service.key } },
        { argv: [], env: { EO_URL: url, EO_API_KEY: service.key } },
      ]) {
        const plain = await eo(['sync', '--db', db, ...settings.argv], { env: settings.env });
        expect(plain.code).toBe(2);
        expect(plain.stderr).toContain(`--url (or EO_URL) ${url}: plain http is allowed only`);
        const flush = await eo(['outbox', 'flush', '--db', db, ...settings.argv], {
          env: settings.env,
        });
        expect(flush.code).toBe(2);
        expect(flush.stderr).toContain('plain http is allowed only');
      }
    }
    const catalogFile = path.join(tmp.dir, 'searches.json');
    fs.writeFileSync(
      catalogFile,
      JSON.stringify([{ bbox: [11, 44, 12, 45] }, { limit: 0, bbox: [1, 2] }]),
    );
    const plan = await eo(['sync', ...flags, '--catalog-file', catalogFile]);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('catalog[1].bbox: bbox is four numbers');
    expect(plan.stderr).toContain('catalog[1].limit: limit must be at least 1');
    // None of these created the database.
    expect((await eo(['status', '--db', db])).code).toBe(1);
  });

  it('--catalog-file: the mirror holds what the saved searches find', async () => {
    const db = freshDb();
    const catalogFile = path.join(tmp.dir, 'one-collection.json');
    fs.writeFileSync(catalogFile, JSON.stringify({ collections: ['col-aurora-l2a'] }));
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const r = await eo([
      'sync',
      ...flags,
      '--resources',
      'catalogs',
      '--catalog-file',
      catalogFile,
    ]);
    expect(r.code).toBe(0);
    const direct = createEoClient({ baseUrl: service.url, apiKey: service.key });
    const expected = await direct.searchCatalogs({ collections: ['col-aurora-l2a'], limit: 1000 });
    const all = await direct.searchCatalogs({ limit: 1 });
    const mirrored = Object.keys(readMirror(db).catalogs);
    expect(mirrored).toEqual(expected.catalogs.map((c) => c.id).sort());
    expect(mirrored.length).toBeGreaterThan(0);
    expect(mirrored.length).toBeLessThan(all.pagination.total!);
  });
});
