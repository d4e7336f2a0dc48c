/**
 * The signed route of scene COGs: byte ranges (one, several as multipart/byteranges, suffix,
 * open, unsatisfiable), If-Range, ETag and 304, HEAD, immutable caching, and the signature
 * (missing, altered, expired, an API key instead).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOurShape } from '../../../__tests__/error-body';
import { createTestApp, DEMO, type TestApp } from '../../../testing/harness';
import { insertSquareScene } from '../../../testing/scenes';

let t: TestApp;
let nowMs = Date.now();
let url = '';
let etag = '';
let whole: Buffer;

beforeAll(async () => {
  t = await createTestApp({ scenes: 5, now: () => nowMs });
  insertSquareScene(t.app.ctx.sqlite, {
    id: 'TEST_HTTP',
    lon: 10.5,
    lat: 52.2,
    km: 1.5,
    datetime: '2024-06-20T10:30:00Z',
  });
  const ref = { source: 'archive', id: 'TEST_HTTP' } as const;
  t.app.ctx.imagery.cogs.ensure(DEMO.orgId, ref);
  await t.app.ctx.imagery.cogs.settled();
  const state = t.app.ctx.imagery.cogs.ensure(DEMO.orgId, ref);
  if (state.status !== 'ready') throw new Error(JSON.stringify(state));
  url = state.url;
  etag = state.etag;
  const r = await get();
  whole = r.rawPayload;
});
afterAll(async () => t.close());

const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', u = url) =>
  t.call({ method, url: u, key: null, headers });

/** The parts of a multipart/byteranges body: each part's Content-Range and bytes. */
function parts(body: Buffer, contentType: string) {
  const boundary = /boundary=(\S+)/.exec(contentType)![1]!;
  const out: { range: string; bytes: Buffer }[] = [];
  let at = body.indexOf(`--${boundary}\r\n`);
  while (at >= 0) {
    const headEnd = body.indexOf('\r\n\r\n', at);
    const head = body.subarray(at, headEnd).toString('latin1');
    const range = /Content-Range: bytes (\d+-\d+\/\d+)/.exec(head)![1]!;
    const [a, b] = range.split('/')[0]!.split('-').map(Number);
    const start = headEnd + 4;
    out.push({ range, bytes: body.subarray(start, start + b! - a! + 1) });
    at = body.indexOf(`--${boundary}`, start + b! - a! + 1);
    if (body.subarray(at, at + boundary.length + 4).toString() === `--${boundary}--`) break;
  }
  return out;
}

describe('the scene COG route', () => {
  it('sends the whole file with a strong ETag, immutable caching and byte ranges advertised', async () => {
    const r = await get();
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe(
      'image/tiff; application=geotiff; profile=cloud-optimized',
    );
    expect(r.headers.etag).toBe(etag);
    expect(etag).toMatch(/^"cog-[0-9a-f]{40}"$/);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(Number(r.headers['content-length'])).toBe(whole.length);
    expect(whole.subarray(0, 4)).toEqual(Buffer.from([0x49, 0x49, 42, 0]));
  });

  it('answers one range, a suffix and an open range with 206 and the right bytes', async () => {
    const n = whole.length;
    for (const [range, start, end] of [
      ['bytes=100-199', 100, 199],
      ['bytes=-500', n - 500, n - 1],
      ['bytes=1000-', 1000, n - 1],
      [`bytes=${n - 10}-${n + 50}`, n - 10, n - 1],
    ] as const) {
      const r = await get({ range });
      expect(r.statusCode, range).toBe(206);
      expect(r.headers['content-range'], range).toBe(`bytes ${start}-${end}/${n}`);
      expect(Number(r.headers['content-length']), range).toBe(end - start + 1);
      expect(r.rawPayload.equals(whole.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers several ranges as multipart/byteranges (overlaps merged, in file order)', async () => {
    const n = whole.length;
    const r = await get({ range: 'bytes=0-15, 200-299,250-349,-10' });
    expect(r.statusCode).toBe(206);
    const ct = String(r.headers['content-type']);
    expect(ct).toMatch(/^multipart\/byteranges; boundary=/);
    expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
    const got = parts(r.rawPayload, ct);
    expect(got.map((p) => p.range)).toEqual([
      `0-15/${n}`,
      `200-349/${n}`,
      `${n - 10}-${n - 1}/${n}`,
    ]);
    expect(got[0]!.bytes.equals(whole.subarray(0, 16))).toBe(true);
    expect(got[1]!.bytes.equals(whole.subarray(200, 350))).toBe(true);
    expect(got[2]!.bytes.equals(whole.subarray(n - 10))).toBe(true);
  });

  it('answers 416 when no range is satisfiable, and ignores a malformed Range', async () => {
    const n = whole.length;
    const r = await get({ range: `bytes=${n}-${n + 100}` });
    expect(r.statusCode).toBe(416);
    expect(r.headers['content-range']).toBe(`bytes */${n}`);
    expect(expectOurShape(r.json(), 'range_not_satisfiable').code).toBe('range_not_satisfiable');
    expect((await get({ range: 'bytes=-0' })).statusCode).toBe(416);
    for (const range of ['pages=1-2', 'bytes=5-1', 'bytes=a-b'])
      expect((await get({ range })).statusCode, range).toBe(200);
  });

  it('honours If-Range (the same ETag: the range; another: the whole file) and If-None-Match (304)', async () => {
    expect((await get({ range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const other = await get({ range: 'bytes=0-9', 'if-range': '"cog-other"' });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.length).toBe(whole.length);
    const cached = await get({ 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect((await get({ 'if-none-match': '"cog-other"' })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const h = await get({}, 'HEAD');
    expect(h.statusCode).toBe(200);
    expect(Number(h.headers['content-length'])).toBe(whole.length);
    expect(h.headers.etag).toBe(etag);
    expect(h.rawPayload.length).toBe(0);
    const hr = await get({ range: 'bytes=10-19' }, 'HEAD');
    expect(hr.statusCode).toBe(206);
    expect(hr.headers['content-range']).toBe(`bytes 10-19/${whole.length}`);
  });

  it('refuses a missing, altered or expired signature, and does not take an API key instead', async () => {
    const [pathname, query] = url.split('?');
    const params = new URLSearchParams(query);
    const sig = params.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const cases = [
      pathname!,
      `${pathname}?expires=${params.get('expires')}&signature=${flipped}`,
      `${pathname}?expires=${Number(params.get('expires')) + 3600}&org=${params.get('org')}&signature=${sig}`,
      // Issued to one organisation: not to another, nor to nobody.
      `${pathname}?expires=${params.get('expires')}&org=org-other&signature=${sig}`,
      `${pathname}?expires=${params.get('expires')}&signature=${sig}`,
      `${pathname!.replace('TEST_HTTP', 'OTHER')}?${query}`,
      `${pathname!.replace('/archive/', '/catalog/')}?${query}`,
    ];
    for (const u of cases) {
      const r = await get({}, 'GET', u);
      expect(r.statusCode, u).toBe(403);
      expect(expectOurShape(r.json(), 'forbidden').code).toBe('forbidden');
    }
    const withKey = await t.call({ method: 'GET', url: pathname! });
    expect(withKey.statusCode).toBe(403);
    const saved = nowMs;
    nowMs = Number(params.get('expires')) * 1000 + 1;
    const expired = await get();
    nowMs = saved;
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.message).toMatch(/expired/);
  });
});
