/**
 * Compressed responses end to end: the real reference service on 127.0.0.1, reached through a
 * counting link (@eo/bench-kit), so the bytes on the wire are seen, not assumed.
 */
import http from 'node:http';
import { LINKS, startLink, type Link } from '@eo/bench-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/service';
import { createEoClient, type RequestEvent } from '../index';

let svc: TestService;
let link: Link;
beforeAll(async () => {
  svc = await startService();
  // Bandwidth and latency do not matter here, only the counts: a fast link.
  link = await startLink(svc.url, { ...LINKS.cellular, bitsPerSecond: 1e9, rttMs: 0 });
});
afterAll(async () => {
  await link.close();
  await svc.close();
});

/** The body as the service sends it uncompressed (raw node:http, no decoding anywhere). */
function identityBody(path: string, body: unknown): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      svc.url + path,
      {
        method: 'POST',
        headers: {
          authorization: svc.key,
          'content-type': 'application/json',
          'accept-encoding': 'identity',
        },
      },
      (res) => {
        expect(res.headers['content-encoding']).toBeUndefined();
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('compressed responses', () => {
  it('asks for br and gzip, gets br on the wire, and reads the page it decodes', async () => {
    const requests: RequestEvent[] = [];
    const codings: Array<string | null> = [];
    const client = createEoClient({
      baseUrl: link.url,
      apiKey: svc.key,
      onRequest: (e) => requests.push(e),
      // The global fetch, only watched: which coding the response came in.
      fetch: async (input, init) => {
        const res = await globalThis.fetch(input, init);
        codings.push(res.headers.get('content-encoding'));
        return res;
      },
    });
    const plain = await identityBody('/v0/catalogs/search', { limit: 100 });
    link.resetCounters();
    const page = await client.searchCatalogs({ limit: 100 });
    const { down } = link.counters();

    expect(requests[0]!.headers['accept-encoding']).toBe('br, gzip');
    expect(codings).toEqual(['br']);
    const expected = JSON.parse(plain.toString()) as { catalogs: Array<{ id: string }> };
    expect(page.catalogs.map((r) => r.id)).toEqual(expected.catalogs.map((r) => r.id));
    expect(page.catalogs).toHaveLength(100);
    // Headers included, the page crossed the wire at well under a quarter of its JSON.
    expect(plain.length).toBeGreaterThan(50_000);
    expect(down).toBeLessThan(plain.length / 4);
  });

  it('reads gzip too (a service that offers only gzip) through the same fetch', async () => {
    // What arrives for a client that says only gzip: undici decodes it as well.
    link.resetCounters();
    const res = await fetch(`${link.url}/v0/catalogs/search`, {
      method: 'POST',
      headers: {
        authorization: svc.key,
        'content-type': 'application/json',
        'accept-encoding': 'gzip',
      },
      body: JSON.stringify({ limit: 100 }),
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = (await res.json()) as { catalogs: unknown[] };
    expect(body.catalogs).toHaveLength(100);
    expect(link.counters().down).toBeLessThan(
      (await identityBody('/v0/catalogs/search', { limit: 100 })).length / 4,
    );
  });
});
