import fs from 'node:fs';
import path from 'node:path';
import { QUICKLOOK_PIXELS } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOurShape } from '../../__tests__/error-body';
import { createTestApp, DEMO, type TestApp } from '../../testing/harness';
import { SIGNING_KEY_FILE } from '../signing';
import { decodePng } from './png-decode';

const expectErrorBody = (r: { json(): unknown }, code: string) =>
  expect(expectOurShape(r.json(), code).code).toBe(code);

let t: TestApp;
let nowMs = Date.now();
beforeAll(async () => {
  t = await createTestApp({ now: () => nowMs });
});
afterAll(async () => t.close());

interface Feature {
  id: string;
  assets: Record<string, { href: string; type?: string }>;
  properties: Record<string, unknown>;
}

async function features(limit = 5): Promise<Feature[]> {
  const r = await t.call({
    method: 'GET',
    url: `/v0/archives/collections/col-aurora-l2a/items?limit=${limit}`,
  });
  expect(r.statusCode).toBe(200);
  return (r.json() as { features: Feature[] }).features;
}

/** GET without an API key, as a client fetching a picture does. */
const fetchAsset = (url: string, headers: Record<string, string> = {}) =>
  t.call({ method: 'GET', url, key: null, headers });

describe('quicklook assets of archive scenes', () => {
  it('signs thumbnail and overview hrefs, fetchable without an API key, deterministic', async () => {
    const [f] = await features(1);
    const { thumbnail, overview } = f!.assets;
    expect(thumbnail!.href).toMatch(
      new RegExp(
        `^/quicklooks/archive/${f!.id}/thumbnail\\.png\\?expires=\\d+&org=${DEMO.orgId}&signature=[\\w-]{43}$`,
      ),
    );
    expect(overview!.href).toContain('/overview.png?');
    expect(overview!.type).toBe('image/png');
    // Other assets keep their storage URIs.
    expect(f!.assets.metadata!.href).toMatch(/^s3:\/\//);

    const a = await fetchAsset(thumbnail!.href);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('image/png');
    expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(a.headers.etag).toMatch(/^"ql-[0-9a-f]{40}"$/);
    const img = decodePng(a.rawPayload);
    expect(Math.max(img.width, img.height)).toBe(QUICKLOOK_PIXELS.thumbnail);
    const big = decodePng((await fetchAsset(overview!.href)).rawPayload);
    expect(Math.max(big.width, big.height)).toBe(QUICKLOOK_PIXELS.overview);

    // Stored once: a second fetch (served from the file) and a fresh render are the same bytes.
    const again = await fetchAsset(thumbnail!.href);
    expect(again.rawPayload.equals(a.rawPayload)).toBe(true);
    const other = await createTestApp();
    try {
      const [g] = (
        (
          await other.call({
            method: 'GET',
            url: `/v0/archives/collections/col-aurora-l2a/items?limit=1`,
          })
        ).json() as { features: Feature[] }
      ).features;
      expect(g!.id).toBe(f!.id);
      const b = await other.call({ method: 'GET', url: g!.assets.thumbnail!.href, key: null });
      expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
      // Another data dir, another secret: the URLs differ, the pictures do not.
      expect(g!.assets.thumbnail!.href).not.toBe(thumbnail!.href);
    } finally {
      await other.close();
    }
    const files = fs.readdirSync(path.join(t.dataDir, 'quicklooks'), { recursive: true });
    expect(files.filter((n) => String(n).endsWith('.png')).length).toBeGreaterThanOrEqual(2);
  });

  it('signs the quicklooks of satellite search results too', async () => {
    const r = await t.call({
      method: 'POST',
      url: '/v0/search',
      payload: {
        satellite: { satellite_id: 'sat-aurora-1', collection_id: 'col-aurora-l2a' },
        limit: 2,
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    const found = (r.json() as { items: { features: Feature[] } }).items.features;
    expect(found.length).toBe(2);
    for (const f of found) {
      const png = await fetchAsset(f.assets.thumbnail!.href);
      expect(png.statusCode).toBe(200);
    }
  });

  it('answers 403 in our error shape for a missing, wrong, tampered or expired signature; the key is no substitute', async () => {
    const [f, g] = await features(2);
    const href = f!.assets.thumbnail!.href;
    const [pathname, query] = href.split('?') as [string, string];
    const params = new URLSearchParams(query);
    const sig = params.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const cases = [
      pathname, // no signature
      `${pathname}?expires=${params.get('expires')}&org=${DEMO.orgId}&signature=${flipped}`,
      `${pathname}?expires=${Number(params.get('expires')) + 3600}&org=${DEMO.orgId}&signature=${sig}`,
      // Issued to one organisation: not another's, nor nobody's (its share is in the signature).
      `${pathname}?expires=${params.get('expires')}&org=org-other&signature=${sig}`,
      `${pathname}?expires=${params.get('expires')}&signature=${sig}`,
      `/quicklooks/archive/${g!.id}/thumbnail.png?${query}`, // another scene, same signature
      `${pathname.replace('thumbnail', 'overview')}?${query}`,
    ];
    for (const url of cases) {
      const r = await fetchAsset(url);
      expect(r.statusCode, url).toBe(403);
      expectErrorBody(r, 'forbidden');
    }
    // The API key is not accepted in place of a signature.
    const withKey = await t.call({ method: 'GET', url: pathname });
    expect(withKey.statusCode).toBe(403);

    const saved = nowMs;
    try {
      nowMs = Number(params.get('expires')) * 1000 + 1;
      const r = await fetchAsset(href);
      expect(r.statusCode).toBe(403);
      expect(r.json().error.message).toMatch(/expired/);
    } finally {
      nowMs = saved;
    }
    expect((await fetchAsset(href)).statusCode).toBe(200);
  });

  it('answers 404 for a validly signed URL of a scene or picture that does not exist', async () => {
    const { signer } = t.app.ctx.imagery;
    for (const url of [
      signer.sign('/quicklooks/archive/NO_SUCH_SCENE/thumbnail.png'),
      signer.sign('/quicklooks/catalog/no-such-record/overview.png'),
      signer.sign('/quicklooks/elsewhere/x/thumbnail.png'),
      signer.sign(`/quicklooks/archive/${(await features(1))[0]!.id}/visual.png`),
    ]) {
      const r = await fetchAsset(url);
      expect(r.statusCode, url).toBe(404);
      expectErrorBody(r, 'not_found');
    }
  });

  it('expires at least a day ahead, in hour steps from the start, so URLs stay the same within the hour', async () => {
    const [f] = await features(1);
    const expires = Number(
      new URL(f!.assets.thumbnail!.href, 'http://x').searchParams.get('expires'),
    );
    expect(expires * 1000 - nowMs).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(expires * 1000 - nowMs).toBeLessThanOrEqual(25 * 3600 * 1000 + 1000);
    const [again] = await features(1);
    expect(again!.assets.thumbnail!.href).toBe(f!.assets.thumbnail!.href);
  });

  it('answers If-None-Match with 304 and serves one byte range (206, 416)', async () => {
    const [f] = await features(1);
    const href = f!.assets.overview!.href;
    const whole = await fetchAsset(href);
    const etag = whole.headers.etag as string;
    const size = whole.rawPayload.length;
    expect(whole.headers['accept-ranges']).toBe('bytes');

    const notModified = await fetchAsset(href, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect((await fetchAsset(href, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    const head = await t.call({ method: 'HEAD', url: href, key: null });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect(Number(head.headers['content-length'])).toBe(size);
    expect(head.rawPayload.length).toBe(0);

    const part = await fetchAsset(href, { range: 'bytes=100-1099' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${size}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(100, 1100))).toBe(true);
    const tail = await fetchAsset(href, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(whole.rawPayload.subarray(size - 10))).toBe(true);
    const open = await fetchAsset(href, { range: `bytes=${size - 5}-` });
    expect(open.headers['content-range']).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
    // A stale If-Range: the whole (new) file instead of a piece of it.
    expect((await fetchAsset(href, { range: 'bytes=0-9', 'if-range': '"old"' })).statusCode).toBe(
      200,
    );

    const beyond = await fetchAsset(href, { range: `bytes=${size}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
    expectErrorBody(beyond, 'range_not_satisfiable');
  });

  it('never compresses a PNG, whatever the client accepts', async () => {
    const [f] = await features(1);
    for (const range of [undefined, 'bytes=0-4095']) {
      const r = await fetchAsset(f!.assets.overview!.href, {
        'accept-encoding': 'br, gzip',
        ...(range ? { range } : {}),
      });
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers['content-type']).toBe('image/png');
    }
  });
});

describe('quicklook assets of catalog records', () => {
  it('signs the stored storage URIs at response time; the stored record keeps them', async () => {
    const r = await t.call({ method: 'POST', url: '/v0/catalogs/search', payload: { limit: 3 } });
    expect(r.statusCode).toBe(200);
    const records = r.json().catalogs as Array<{ id: string; details: Feature }>;
    expect(records.length).toBe(3);
    for (const rec of records) {
      const href = rec.details.assets.thumbnail!.href;
      expect(href).toMatch(new RegExp(`^/quicklooks/catalog/${rec.id}/thumbnail\\.png\\?expires=`));
      const png = await fetchAsset(href);
      expect(png.statusCode).toBe(200);
      expect(decodePng(png.rawPayload).width).toBeGreaterThan(0);
      const stored = t.app.ctx.sqlite
        .prepare('SELECT record_json FROM catalog_records WHERE id = ?')
        .get(rec.id) as { record_json: string };
      expect(stored.record_json).toContain('s3://eo-archive/');
      expect(stored.record_json).not.toContain('signature=');
    }
  });
});

describe('signing secret and asset origin', () => {
  it('keeps one owner-only secret per data dir, and emits URLs on a configured asset origin', async () => {
    const file = path.join(t.dataDir, SIGNING_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const other = await createTestApp({ assetOrigin: 'https://assets.example' });
    try {
      const r = await other.call({
        method: 'GET',
        url: '/v0/archives/collections/col-aurora-l2a/items?limit=1',
      });
      const href = (r.json() as { features: Feature[] }).features[0]!.assets.thumbnail!.href;
      expect(href).toMatch(/^https:\/\/assets\.example\/quicklooks\/archive\//);
      // The CDN forwards the path and query: the same request works here.
      const png = await other.call({
        method: 'GET',
        url: href.slice('https://assets.example'.length),
        key: null,
      });
      expect(png.statusCode).toBe(200);
    } finally {
      await other.close();
    }
    await expect(createTestApp({ assetOrigin: 'https://assets.example/path' })).rejects.toThrow(
      /origin/,
    );
  });
});
