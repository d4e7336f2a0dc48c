/**
 * Cold start: the embedded service starts after the first screen (launch.ts), on a port held
 * from launch (held-port.ts), and the backend's first check finds it there, never a closed port;
 * a configured service is first asked after the first screen too (first-screen.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { COMPACT_LAYOUT, makeCatalogUpserter, type CatalogRecordOut } from '@eo/catalog-store';
import { openMirrorDatabase } from '@eo/sync';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIRROR_FILE } from '../backend';
import { holdPort } from '../held-port';
import { makeKeyBinding } from '../key-binding';
import { launchBackend, type Launched } from '../launch';
import { openDesktopStore } from '../local-store';
import { memorySecrets } from '../secrets';
import { tempDir, until } from './harness';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.on('data', (b: Buffer) => (body += b.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('held port', () => {
  it('keeps a request made before the server exists and hands it over', async () => {
    const held = await holdPort();
    cleanups.push(() => held.close());
    let answered = false;
    const early = get(`${held.url}/early`).then((r) => ((answered = true), r));
    // The request is connected and waiting: nothing answers it yet.
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    const server = http.createServer((req, res) => res.end(`took ${req.url}`));
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    });
    held.handTo(server);
    expect(await early).toEqual({ status: 200, body: 'took /early' });
    expect(await get(`${held.url}/late`)).toEqual({ status: 200, body: 'took /late' });
  });
});

describe('launch with the embedded service', () => {
  /** What the launches logged ("starting the embedded reference service" as it starts). */
  const logged: string[] = [];
  const launch = async (
    dataDir: string,
    secrets = memorySecrets(),
    waitForFirstScreenMs = 60_000,
  ) => {
    const l = await launchBackend({
      dataDir,
      secrets,
      mode: 'browser',
      embeddedScenes: 50,
      waitForFirstScreenMs,
      log: (line) => logged.push(line),
    });
    cleanups.push(() => l.close());
    return l;
  };
  const connectivity = async (l: Launched) => {
    const r = await l.backend.dispatch('connectivity.check', {});
    return r.ok ? (r.value as { state: string }).state : `error ${JSON.stringify(r)}`;
  };

  it('first run: starts the service before the backend (no key yet); later runs: after the first screen', async () => {
    const dataDir = tempDir('eo-desktop-launch-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const secrets = memorySecrets();

    const first = await launch(dataDir, secrets);
    expect(secrets.get()).not.toBeNull();
    expect(await connectivity(first)).toBe('online');
    await first.close();

    // Second launch: the key exists, so the service waits for the first screen.
    const second = await launch(dataDir, secrets);
    let started = false;
    void second.embedded!.started.then(() => (started = true));
    const info = await second.backend.dispatch('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { embeddedServiceUrl: second.embedded!.url } });
    // A check made now waits on the held port instead of finding it closed ("offline").
    const check = connectivity(second);
    await new Promise((r) => setTimeout(r, 50));
    expect(started).toBe(false);
    // The first screen's calls answered: the page draws now; the service still waits. (A start
    // asked for on an answer begins, and says so, in the next turn of the event loop.)
    logged.length = 0;
    expect(await second.backend.dispatch('catalog.footprints', {})).toMatchObject({ ok: true });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(logged.filter((l) => l.includes('starting the embedded'))).toEqual([]);
    expect(started).toBe(false);
    // The renderer says its first screen is up: the service starts, the check finds it online.
    expect(await second.backend.dispatch('app.firstScreenShown', {})).toMatchObject({
      ok: true,
      value: { noted: true },
    });
    await until('the embedded service started', () => started);
    expect(await check).toBe('online');
  });

  it('starts the deferred service after waitForFirstScreenMs when no renderer asks', async () => {
    const dataDir = tempDir('eo-desktop-launch-late-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const secrets = memorySecrets();
    await (await launch(dataDir, secrets)).close();
    const l = await launch(dataDir, secrets, 10);
    await l.embedded!.started;
    expect(await connectivity(l)).toBe('online');
  });
});

describe('launch with a configured service', () => {
  it('asks the service first once the first screen is up: the check would take a core from it', async () => {
    const dataDir = tempDir('eo-desktop-launch-check-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // Refuses every key: a check is one request, answered at once (no retries).
    const asked: string[] = [];
    const service = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'no' } }));
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      service.closeAllConnections();
      return new Promise((r) => service.close(r));
    });
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const secrets = memorySecrets();
    // Configured as Settings stores it, without a backend that would ask the service meanwhile.
    const store = openDesktopStore(dataDir);
    store.saveSettings({ ...store.settings(), serviceUrl });
    makeKeyBinding({ secrets, store, embeddedUrl: null }).set('key', serviceUrl);
    store.close();

    const l = await launchBackend({
      dataDir,
      secrets,
      mode: 'browser',
      waitForFirstScreenMs: 60_000,
    });
    cleanups.push(() => l.close());
    expect(await l.backend.dispatch('catalog.footprints', {})).toMatchObject({ ok: true });
    // A check the watcher scheduled at launch (a timer of 0 ms, set before this one) has started
    // by now, and idle() waits for it: none did.
    await new Promise((r) => setTimeout(r, 0));
    await l.backend.idle();
    expect(asked).toEqual([]);

    expect(await l.backend.dispatch('app.firstScreenShown', {})).toMatchObject({ ok: true });
    await until('the watcher’s first check reached the service', () => asked.length > 0);
    expect(asked[0]).toBe('/ping');
  });
});

describe("the first screen's footprints", () => {
  it('are kept in the mirror once the first screen is up, for the next launch', async () => {
    const dataDir = tempDir('eo-desktop-launch-kept-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, MIRROR_FILE);
    const mirror = openMirrorDatabase(file);
    const upsert = makeCatalogUpserter(mirror.sqlite, 'lenient', COMPACT_LAYOUT);
    for (const [id, x] of [
      ['a', 0],
      ['b', 10],
    ] as const)
      upsert(
        {
          id,
          created_at: '2024-01-01T00:00:00Z',
          details: {
            id: `item-${id}`,
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [x, 0],
                  [x + 1, 0],
                  [x + 1, 1],
                  [x, 0],
                ],
              ],
            },
            properties: { datetime: '2024-01-01T00:00:00Z' },
          },
        } as unknown as CatalogRecordOut,
        { orgId: 'mirror', orderId: null, orderItemId: null },
      );
    mirror.close();
    // A service out of reach (the field): no embedded service, nothing synced.
    const store = openDesktopStore(dataDir);
    store.saveSettings({ ...store.settings(), serviceUrl: 'http://127.0.0.1:9' });
    store.close();
    const reader = new Database(file, { readonly: true });
    cleanups.push(() => reader.close());
    const kept = () =>
      reader.prepare('SELECT n FROM mirror_footprints_kept').pluck().all() as number[];

    const launch = async () => {
      const l = await launchBackend({
        dataDir,
        secrets: memorySecrets(),
        mode: 'browser',
        waitForFirstScreenMs: 60_000,
      });
      cleanups.push(() => l.close());
      return l;
    };
    const first = await launch();
    const answer = await first.backend.dispatch('catalog.footprints', {});
    expect(answer).toMatchObject({ ok: true });
    await first.backend.idle();
    expect(kept(), 'nothing written before the first screen').toEqual([]);
    await first.backend.dispatch('app.firstScreenShown', {});
    await until('the footprints kept', () => kept().length > 0);
    expect(kept()).toEqual([2]);
    await first.close();

    const second = await launch();
    expect(await second.backend.dispatch('catalog.footprints', {})).toEqual(answer);
  });
});
