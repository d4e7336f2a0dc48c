import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedService } from '../embedded-service';
import { EMBEDDED_BINDING } from '../key-binding';
import { keySlot, openKeyring } from '../keyring';
import { launchBackend } from '../launch';
import { openDesktopStore } from '../local-store';
import { fileSecrets, memorySecrets, type Secrets } from '../secrets';
import { startBackend, tempDir, TEST_SETTINGS } from './harness';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A real tile server on 127.0.0.1 that counts requests. */
async function tileServer() {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/1/0/0.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    } else if (req.url === '/1/1/1.png') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>not a tile</html>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    png,
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('tiles', () => {
  it('fetches a tile once, caches it in SQLite and serves it offline', async () => {
    const tiles = await tileServer();
    const t = startBackend();
    cleanups.push(() => t.close());
    expect(await t.call('tiles.get', { z: 1, x: 0, y: 0 })).toBeNull(); // no tile URL yet
    await t.call('settings.update', { tileUrl: `${tiles.url}/{z}/{x}/{y}.png` });
    const first = await t.call('tiles.get', { z: 1, x: 0, y: 0 });
    expect(first).toEqual({ contentType: 'image/png', base64: tiles.png.toString('base64') });
    // A tile that cannot be had says why (the map shows "Online tiles unavailable: <why>").
    await expect(t.call('tiles.get', { z: 1, x: 1, y: 1 })).rejects.toThrow(/not an image/);
    await expect(t.call('tiles.get', { z: 1, x: 1, y: 0 })).rejects.toThrow(/HTTP 404/);
    await tiles.close();
    const hits = tiles.hits();
    expect(await t.call('tiles.get', { z: 1, x: 0, y: 0 })).toEqual(first);
    expect(tiles.hits()).toBe(hits);
    // Offline, not cached.
    await expect(t.call('tiles.get', { z: 1, x: 1, y: 0 })).rejects.toMatchObject({
      code: 'offline',
      message: 'the tile server could not be reached',
    });
  });

  it('working offline serves cached tiles only: the tile server hears nothing', async () => {
    const tiles = await tileServer();
    cleanups.push(() => tiles.close());
    const t = startBackend();
    cleanups.push(() => t.close());
    await t.call('settings.update', { tileUrl: `${tiles.url}/{z}/{x}/{y}.png` });
    const cached = await t.call('tiles.get', { z: 1, x: 0, y: 0 });
    await t.call('settings.update', { workOffline: true });
    const hits = tiles.hits();
    expect(await t.call('tiles.get', { z: 1, x: 0, y: 0 })).toEqual(cached);
    await expect(t.call('tiles.get', { z: 1, x: 1, y: 0 })).rejects.toMatchObject({
      code: 'working_offline',
    });
    expect(tiles.hits()).toBe(hits);
  });
});

describe('secrets', () => {
  it('browser mode keeps the key in a 0600 file, and forgets it', () => {
    const dir = tempDir('eo-desktop-secrets-');
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const s = fileSecrets(dir);
    expect(s.get()).toBeNull();
    s.set('k-123');
    expect(s.get()).toBe('k-123');
    expect(fs.statSync(path.join(dir, 'api-key')).mode & 0o777).toBe(0o600);
    s.set(null);
    expect(s.get()).toBeNull();
  });

  it('the backend reports how the key is kept: a private file in browser mode', async () => {
    const dataDir = tempDir('eo-desktop-key-storage-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const t = startBackend({ dataDir, secrets: fileSecrets(dataDir) });
    cleanups.push(() => t.close());
    expect((await t.call('settings.get')).apiKeyStorage).toBe('owner-only-file');
  });
});

describe('the data folder', () => {
  it('browser mode: the folder 0700, mirror.sqlite, desktop.sqlite, their -wal/-shm and api-key 0600', async () => {
    const parent = tempDir('eo-desktop-modes-');
    cleanups.push(() => fs.rmSync(parent, { recursive: true, force: true }));
    const dataDir = path.join(parent, 'eo-field-desk');
    const launched = await launchBackend({
      dataDir,
      secrets: fileSecrets(dataDir),
      mode: 'browser',
      embedded: false,
    });
    cleanups.push(() => launched.close());
    const call = (m: string, input: unknown) => launched.backend.dispatch(m, input);
    // Writes to both databases (their -wal files) and stores a key.
    expect(
      await call('settings.update', { serviceUrl: 'http://127.0.0.1:9', apiKey: 'k-1' }),
    ).toMatchObject({ ok: true });
    expect(
      await call('outbox.enqueue', {
        kind: 'job',
        input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' },
      }),
    ).toMatchObject({ ok: true });
    const mode = (name: string) => fs.statSync(path.join(dataDir, name)).mode & 0o777;
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(dataDir).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'api-key',
        'desktop.sqlite',
        'desktop.sqlite-wal',
        'mirror.sqlite',
        'mirror.sqlite-wal',
      ]),
    );
    expect(Object.fromEntries(files.map((f) => [f, mode(f)]))).toEqual(
      Object.fromEntries(files.map((f) => [f, 0o600])),
    );
  });
});

describe('embedded reference service', () => {
  it('starts seeded, stores a working demo key, and reuses or replaces it on restart', async () => {
    const dataDir = tempDir('eo-desktop-embedded-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const secrets = memorySecrets();
    // The embedded service's key as launch keeps it: its own slot of the keyring (keyring.ts).
    const store = openDesktopStore(dataDir);
    cleanups.push(() => store.close());
    // The harness's test settings (no pictures): this is about the service and its key, and
    // rendering the seed's thumbnails took over 30 s of the sync at load 20.
    store.saveSettings({ ...store.settings(), ...TEST_SETTINGS });
    const slot: Secrets = keySlot(
      openKeyring(secrets, store, EMBEDDED_BINDING),
      EMBEDDED_BINDING,
      secrets,
    );
    const first = await startEmbeddedService({
      dataDir,
      secrets: slot,
      scenes: 400,
      stepDelayMs: 0,
    });
    const key = slot.get();
    expect(key).not.toBeNull();
    const t = startBackend({ dataDir, secrets, embeddedServiceUrl: first.url });
    const online = t.waitFor(
      'connectivity.changed',
      (p) => (p as { state: string }).state === 'online',
    );
    expect((await t.call('app.info')).embeddedServiceUrl).toBe(first.url);
    expect((await t.call('settings.get')).serviceUrl).toBeNull();
    await online;
    const finished = t.waitFor('sync.finished');
    await t.call('sync.run');
    await finished;
    expect((await t.call('catalog.search', { limit: 5 })).total).toBeGreaterThan(0);
    await t.backend.close();
    await first.close();
    // The service's folder and database are the user's alone, like the rest of the data dir.
    const own = path.join(dataDir, 'embedded-service');
    const mode = (f: string) => fs.statSync(f).mode & 0o777;
    expect(mode(own)).toBe(0o700);
    expect(mode(path.join(own, 'eo.sqlite'))).toBe(0o600);
    // An older folder and database made with the umask's 0755 / 0644 are tightened.
    fs.chmodSync(own, 0o755);
    fs.chmodSync(path.join(own, 'eo.sqlite'), 0o644);

    // Restart: the stored key still works, it is kept.
    const second = await startEmbeddedService({ dataDir, secrets: slot, stepDelayMs: 0 });
    expect(slot.get()).toBe(key);
    expect(mode(own)).toBe(0o700);
    expect(mode(path.join(own, 'eo.sqlite'))).toBe(0o600);
    await second.close();
    // A key from elsewhere: replaced by a fresh demo key.
    slot.set('someone-elses-key');
    const third = await startEmbeddedService({ dataDir, secrets: slot, stepDelayMs: 0 });
    cleanups.push(() => third.close());
    expect(slot.get()).not.toBe('someone-elses-key');
    expect(slot.get()).not.toBeNull();
  });
});
