/**
 * The download routes under random and hostile requests (fast-check, seeded): creates with
 * random bodies (any JSON, the id lists of wrong types, sizes and values, raw text), content
 * types, Idempotency-Keys, keys and AOI ids; reads of random ids; the signed manifest with random
 * `Range`, `If-Range` and `If-None-Match`, and tampered or foreign signatures. Never a 5xx, every
 * error a 4xx in our shape, the manifest's bytes its own; every answer within 10 s, counts fixed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answered,
  asSent,
  expectClearRefusal,
  FUZZ_SEED,
  printable,
  rangeHeader,
  segment,
} from '../../__tests__/fuzz';
import { withTamperedSignature } from '../../__tests__/signed-urls';
import { createAoi, insertFixtureScenes } from '../../aois/__tests__/fixtures';
import { createTestApp, DEMO, OTHER, type TestApp } from '../../testing/harness';
import { manifestPath } from '../files';
import { makeDownloadQueries } from '../repository';

let t: TestApp;
/** The demo organisation's AOI, and another organisation's. */
let aoiIds: string[];
let manifestUrl = '';
let manifest: Buffer;
let etag = '';
const DOWNLOAD_ID = 'dl_fuzz_manifest';

beforeAll(async () => {
  t = await createTestApp({ scenes: 5 });
  insertFixtureScenes(t);
  aoiIds = [
    (await createAoi(t)).aoi_id,
    (await createAoi(t, { project_id: OTHER.projectId }, t.otherKey)).aoi_id,
  ];
  // A finished download of two scenes, as the worker leaves one: its signed_url is a manifest.
  const now = t.app.ctx.nowUs();
  makeDownloadQueries(t.app.ctx.sqlite).insert({
    id: DOWNLOAD_ID,
    org_id: DEMO.orgId,
    aoi_id: null,
    requested_field: 'catalog_ids',
    requested_ids_json: JSON.stringify(['cat_a', 'cat_b']),
    status: 'success',
    reason: null,
    scenes_json: JSON.stringify([
      { source: 'archive', id: 'SCENE_A' },
      { source: 'archive', id: 'SCENE_B' },
    ]),
    created_by: DEMO.users[0].id,
    created_at: now,
    updated_at: now,
  });
  manifestUrl = t.app.ctx.imagery.signer.sign(manifestPath(DOWNLOAD_ID));
  const res = await t.call({ method: 'GET', url: manifestUrl, key: null });
  expect(res.statusCode).toBe(200);
  manifest = res.rawPayload;
  etag = String(res.headers.etag);
});
afterAll(async () => t.close());

const idList = fc.oneof(
  fc.array(segment, { maxLength: 60 }),
  // Far more ids than a download takes, each unknown.
  fc.constant(Array.from({ length: 20_000 }, (_, i) => `cat_${i}`)),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 8 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const body = fc.oneof(
  fc.record(
    { catalog_ids: idList, order_item_ids: idList, asset_ids: idList, extra: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  printable(200),
);
const key = () =>
  fc.oneof(
    fc.constant(undefined), // the demo key
    fc.constant('OTHER'),
    fc.constant(null),
    printable(60),
  );
const keyOf = (k: string | null | undefined) => (k === 'OTHER' ? t.otherKey : k);

describe('the download routes, fuzzed', () => {
  it('creates with random bodies, content types, keys and AOI ids: a clear 4xx, never 5xx', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          aoi: fc.oneof(fc.constant(null), fc.constantFrom(...aoiIds), segment),
          body,
          contentType: fc.oneof(
            fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
            printable(40),
          ),
          idempotencyKey: fc.oneof(fc.constant(undefined), printable(300)),
          key: key(),
        }),
        async (c) => {
          const url =
            c.aoi === null ? '/v0/catalogs/download' : `/v0/aois/${asSent(c.aoi)}/downloads`;
          const headers: Record<string, string> = { 'content-type': c.contentType };
          if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
          const payload = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
          const what = `POST ${url.slice(0, 200)} ${JSON.stringify(headers).slice(0, 200)} ${payload.slice(0, 200)}`;
          const res = await answered(
            t.call({ method: 'POST', url, payload, headers, key: keyOf(c.key) }),
            what,
          );
          seen.add(res.statusCode);
          expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
          expectClearRefusal(res, what);
        },
      ),
      { numRuns: 300, seed: FUZZ_SEED },
    );
    // The draws passed the key and reached the body's checks and the ids' lookups.
    expect(
      [400, 401, 404].every((s) => seen.has(s)),
      [...seen].join(','),
    ).toBe(true);
  });

  it("reads of random ids, and of a download with another organisation's key: a clear 404, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          aoi: fc.oneof(fc.constant(null), fc.constantFrom(...aoiIds), segment),
          id: fc.oneof(fc.constant(DOWNLOAD_ID), segment),
          query: fc.oneof(
            fc.constant(''),
            printable(60).map((q) => `?${encodeURIComponent(q)}`),
          ),
          key: key(),
        }),
        async (c) => {
          const url =
            c.aoi === null
              ? `/v0/catalogs/download/${asSent(c.id)}${c.query}`
              : `/v0/aois/${asSent(c.aoi)}/downloads/${asSent(c.id)}${c.query}`;
          const what = `GET ${url.slice(0, 300)} key ${String(c.key).slice(0, 20)}`;
          const res = await answered(t.call({ method: 'GET', url, key: keyOf(c.key) }), what);
          const own = c.id === DOWNLOAD_ID && c.aoi === null && c.key === undefined;
          if (own && c.query === '') expect(res.statusCode, what).toBe(200);
          else if (!own) expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
          expectClearRefusal(res, what);
        },
      ),
      { numRuns: 300, seed: FUZZ_SEED },
    );
  });

  it('the signed manifest with random Range, If-Range and If-None-Match: its own bytes, 304 or 416', async () => {
    const seen = new Set<number>();
    const validator = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('ETAG', 'W/ETAG', '*', '"dm-x"'),
      printable(60),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ range: rangeHeader, ifRange: validator, ifNoneMatch: validator }),
        async (c) => {
          const headers: Record<string, string> = {};
          if (c.range !== undefined) headers.range = c.range;
          if (c.ifRange !== undefined) headers['if-range'] = c.ifRange.replace('ETAG', etag);
          if (c.ifNoneMatch !== undefined)
            headers['if-none-match'] = c.ifNoneMatch.replace('ETAG', etag);
          const what = `GET manifest ${JSON.stringify(headers).slice(0, 300)}`;
          const res = await answered(
            t.call({ method: 'GET', url: manifestUrl, key: null, headers }),
            what,
          );
          seen.add(res.statusCode);
          expect([200, 206, 304, 416], what).toContain(res.statusCode);
          expectClearRefusal(res, what);
          if (res.statusCode === 200) expect(res.rawPayload.equals(manifest), what).toBe(true);
          if (res.statusCode === 206) {
            const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(res.headers['content-range']))!;
            expect(m, what).not.toBeNull();
            const part = manifest.subarray(Number(m[1]), Number(m[2]) + 1);
            expect(res.rawPayload.equals(part), what).toBe(true);
          }
        },
      ),
      {
        numRuns: 250,
        seed: FUZZ_SEED,
        // Each kind of answer at least once, whatever the draws (so each check below runs).
        examples: [
          [{ range: undefined, ifRange: undefined, ifNoneMatch: undefined }],
          [{ range: 'bytes=5-', ifRange: 'ETAG', ifNoneMatch: undefined }],
          [{ range: undefined, ifRange: undefined, ifNoneMatch: 'W/ETAG' }],
          [{ range: 'bytes=999999-', ifRange: undefined, ifNoneMatch: undefined }],
        ],
      },
    );
    expect([...seen].sort()).toEqual([200, 206, 304, 416]);
  });

  it('manifest URLs for other ids, tampered or signed for another path: a clear 403 or 404', async () => {
    const signer = t.app.ctx.imagery.signer;
    const query = manifestUrl.split('?')[1]!;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          id: fc.oneof(fc.constant(DOWNLOAD_ID), segment),
          how: fc.constantFrom('signed', 'foreign', 'tampered', 'none', 'expired'),
        }),
        async (c) => {
          const path = `/downloads/${asSent(c.id)}/manifest.json`;
          if (c.id === DOWNLOAD_ID && ['signed', 'foreign'].includes(c.how)) return; // valid
          const signed = signer.sign(path).split('?')[1]!;
          const q = {
            signed,
            foreign: query,
            tampered: withTamperedSignature(signed),
            none: '',
            expired: signer.sign(path, 1_000_000).split('?')[1]!,
          }[c.how];
          const url = `${path}?${q}`;
          const res = await answered(t.call({ method: 'GET', url, key: null }), `GET ${url}`);
          expect([403, 404, 400], url).toContain(res.statusCode);
          expectClearRefusal(res, url);
        },
      ),
      { numRuns: 200, seed: FUZZ_SEED },
    );
  });
});
