/**
 * The imagery resource against the real reference service on 127.0.0.1, through a recording
 * proxy (every request's headers seen): thumbnails of every mirrored catalog record, nothing
 * fetched twice, bad files found and fetched again, the budget, interrupted runs resumed, no
 * API key sent with a quicklook request, expired URLs counted once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFaultProxy,
  type Fault,
  type FaultProxy,
  type ProxyRequest,
} from '../../__tests__/fault-proxy';
import { tempDir } from '../../db/__tests__/temp';
import { SyncBusyError } from '../errors';
import { openMirror, type Mirror } from '../../mirror/mirror';
import { imageryDir } from '../../mirror/imagery';
import { readPngHeader } from '../../mirror/png-header';
import { DEFAULT_IMAGERY_CONCURRENCY, quicklookUrl, type ImagerySyncOptions } from '../imagery';
import { startService, type TestService } from './service';

let service: TestService;
let proxy: FaultProxy;
const seen: ProxyRequest[] = [];
/** Decides the fault of each quicklook request (API requests always pass). */
let quicklookFault: (n: number) => Fault = () => 'pass';
let quicklooksAsked = 0;
const tmp = tempDir('imagery');
let mirrorCount = 0;

const isQuicklook = (r: ProxyRequest) => r.url.startsWith('/quicklooks/');
const quicklookRequests = () => seen.filter(isQuicklook);

beforeAll(async () => {
  service = await startService();
  proxy = await startFaultProxy(service.url, (req) => {
    seen.push(req);
    return isQuicklook(req) ? quicklookFault(quicklooksAsked++) : 'pass';
  });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
  tmp.remove();
});

const client = () =>
  createEoClient({ baseUrl: proxy.url, apiKey: service.key, retry: { maxAttempts: 1 } });

/** A new mirror with the service's catalog records (no quicklooks yet). */
async function mirrorWithRecords(): Promise<Mirror> {
  const mirror = openMirror(path.join(tmp.dir, `mirror-${mirrorCount++}.db`));
  await mirror.sync(client(), { resources: ['catalogs'] });
  return mirror;
}

const options = (o: Partial<ImagerySyncOptions> = {}): ImagerySyncOptions => ({
  serviceUrl: proxy.url,
  budgetBytes: 1024 ** 3,
  ...o,
});

/** Runs `body` and returns the quicklook requests it sent. */
async function asked(body: () => Promise<unknown>): Promise<ProxyRequest[]> {
  const before = quicklookRequests().length;
  await body();
  return quicklookRequests().slice(before);
}

/** A fetch that records the path of every URL it is asked for. */
function recordingFetch(): { fetch: typeof fetch; paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : input).pathname);
      return fetch(input, init);
    },
  };
}

function catalogIds(mirror: Mirror): string[] {
  return mirror.catalog.search({ limit: 1000 }).catalogs.map((r) => r.id);
}

describe('imagery sync', () => {
  let mirror: Mirror;
  beforeAll(async () => {
    mirror = await mirrorWithRecords();
  });
  afterAll(() => mirror.close());

  it('mirrors a checked thumbnail of every catalog record, owner-only, without the API key', async () => {
    const ids = catalogIds(mirror);
    expect(ids.length).toBeGreaterThan(100);
    const progress: number[] = [];
    const sent = await asked(async () => {
      const report = await mirror.imagery.sync(
        options({ onProgress: (p) => progress.push(p.seen) }),
      );
      expect(report).toMatchObject({ wanted: ids.length, kept: 0, fetched: ids.length });
      expect(report.failed + report.expired + report.refused + report.overBudget).toBe(0);
    });
    expect(sent).toHaveLength(ids.length);
    expect(progress.at(-1)).toBe(ids.length);
    // The key travels with API requests (the recorder sees it) and never with a quicklook.
    const carriesKey = (r: ProxyRequest) =>
      Object.values(r.headers).some((v) => String(v).includes(service.key));
    expect(seen.filter((r) => !isQuicklook(r)).every(carriesKey)).toBe(true);
    expect(sent.filter(carriesKey)).toEqual([]);
    expect(sent.filter((r) => r.headers.authorization !== undefined)).toEqual([]);

    for (const id of ids) {
      const bytes = mirror.imagery.get(id, 'thumbnail');
      expect(readPngHeader(bytes!)?.width ?? 0, id).toBeGreaterThan(0);
      expect(mirror.imagery.get(id, 'overview')).toBeNull();
    }
    // The same bytes as the service's (its href, fetched directly).
    const record = mirror.catalog.get(ids[0]!)!;
    const href = (record.details as { assets: Record<string, { href: string }> }).assets.thumbnail!
      .href;
    const direct = Buffer.from(await (await fetch(new URL(href, service.url))).arrayBuffer());
    expect(mirror.imagery.get(ids[0]!, 'thumbnail')!.equals(direct)).toBe(true);

    const dir = imageryDir(mirror.file);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(ids.length);
    for (const f of files) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    expect(mirror.imagery.counts()).toMatchObject({ thumbnail: ids.length, overview: 0 });
  }, 180_000); // the service renders every thumbnail on first request (~0.1 s each under load)

  it('a second sync fetches nothing', async () => {
    const sent = await asked(async () => {
      const report = await mirror.imagery.sync(options());
      expect(report).toMatchObject({ fetched: 0, kept: catalogIds(mirror).length, bad: 0 });
    });
    expect(sent).toEqual([]);
  });

  it('one run at a time per mirror: a second one while it runs is refused', async () => {
    const running = mirror.imagery.sync(options());
    const second = mirror.imagery.sync(options());
    // Checked before anything is awaited: the first run is still going.
    expect(() => mirror.clear()).toThrow(SyncBusyError);
    await expect(second).rejects.toThrow(SyncBusyError);
    await running;
  });

  it('a corrupted file is refused before use and fetched again; so is a truncated one', async () => {
    const [flipped, truncated] = catalogIds(mirror);
    const dir = imageryDir(mirror.file);
    const fileOf = (id: string) =>
      path.join(
        dir,
        `${crypto.createHash('sha256').update(id).digest('hex').slice(0, 40)}-thumbnail.png`,
      );
    const good = fs.readFileSync(fileOf(flipped!));
    const bad = Buffer.from(good);
    bad[bad.length - 20]! ^= 0xff; // same size: only the hash can tell
    fs.writeFileSync(fileOf(flipped!), bad);
    fs.truncateSync(fileOf(truncated!), 100);

    expect(mirror.imagery.get(flipped!, 'thumbnail')).toBeNull();
    expect(fs.existsSync(fileOf(flipped!))).toBe(false);
    const sent = await asked(async () => {
      const report = await mirror.imagery.sync(options());
      expect(report).toMatchObject({ fetched: 2, bad: 1 }); // the flipped one was already gone
    });
    expect(sent).toHaveLength(2);
    expect(mirror.imagery.get(flipped!, 'thumbnail')!.equals(good)).toBe(true);
    expect(readPngHeader(mirror.imagery.get(truncated!, 'thumbnail')!)).not.toBeNull();
  });

  it('the budget evicts the least recently viewed first and is never exceeded', async () => {
    const ids = catalogIds(mirror);
    const viewed = [ids[10]!, ids[20]!, ids[30]!];
    for (const id of viewed) mirror.imagery.touch(id);
    const sizes = viewed.map((id) => mirror.imagery.get(id, 'thumbnail')!.length);
    const budget = sizes.reduce((a, b) => a + b, 0) + 1000; // room for the three, not a fourth
    const sent = await asked(async () => {
      const report = await mirror.imagery.sync(options({ budgetBytes: budget }));
      expect(report.evicted).toBe(ids.length - 3);
      expect(report).toMatchObject({ kept: 3, fetched: 0, overBudget: ids.length - 3 });
    });
    // The first picture that does not fit ends the run's fetching (one per worker at most).
    expect(sent.length).toBeLessThanOrEqual(DEFAULT_IMAGERY_CONCURRENCY);
    expect(mirror.imagery.counts()).toMatchObject({ thumbnail: 3 });
    expect(mirror.imagery.counts().bytes).toBeLessThanOrEqual(budget);
    for (const id of viewed) expect(mirror.imagery.get(id, 'thumbnail')).not.toBeNull();
    expect(fs.readdirSync(imageryDir(mirror.file))).toHaveLength(3);

    // A larger budget fills up again, never past it.
    const room = budget + 20 * Math.max(...sizes);
    const report = await mirror.imagery.sync(options({ budgetBytes: room }));
    expect(report.fetched).toBeGreaterThan(5);
    expect(report.overBudget).toBeGreaterThan(0);
    expect(mirror.imagery.counts().bytes).toBeLessThanOrEqual(room);
  });
});

describe('interrupted and refused downloads', () => {
  it('an aborted sync and a body cut mid-transfer resume with what is missing only', async () => {
    const mirror = await mirrorWithRecords();
    const total = catalogIds(mirror).length;
    const stop = new AbortController();
    quicklookFault = (n) => (n % 7 === 3 ? 'cut' : 'pass');
    // What each run asked for, recorded client-side: an aborted request may reach the proxy
    // after its run has ended.
    const first = recordingFetch();
    await mirror.imagery
      .sync(
        options({
          fetch: first.fetch,
          signal: stop.signal,
          onProgress: (p) => {
            if (p.seen >= 20) stop.abort();
          },
        }),
      )
      .then(
        () => expect.fail('the sync was aborted'),
        (e: unknown) => expect((e as Error).name).toBe('AbortError'),
      );
    quicklookFault = () => 'pass';
    expect(proxy.counts.cut).toBeGreaterThan(0);
    const stored = mirror.imagery.counts().thumbnail;
    expect(stored).toBeGreaterThanOrEqual(15);
    expect(stored).toBeLessThan(total);
    const second = recordingFetch();
    const report = await mirror.imagery.sync(options({ fetch: second.fetch }));
    expect(report).toMatchObject({ kept: stored, fetched: total - stored, failed: 0 });
    expect(second.paths).toHaveLength(total - stored);
    // Of the first run's requests, exactly those not stored (cut, aborted) were asked again.
    const again = second.paths.filter((p) => first.paths.includes(p));
    expect(again).toHaveLength(first.paths.length - stored);
    expect(mirror.imagery.counts().thumbnail).toBe(total);
    mirror.close();
  });

  it('expired URLs (403) are counted once, not retried, and the next catalog pass is full', async () => {
    const mirror = await mirrorWithRecords();
    const total = catalogIds(mirror).length;
    quicklookFault = () => ({ status: 403 });
    try {
      let wanted = 0;
      const sent = await asked(async () => {
        const report = await mirror.imagery.sync(options({ choice: 'overviews' }));
        expect(report).toMatchObject({ fetched: 0, expired: report.wanted });
        expect(report.wanted).toBeGreaterThan(total); // thumbnails and overviews
        wanted = report.wanted;
      });
      expect(sent).toHaveLength(wanted); // each asked once
    } finally {
      quicklookFault = () => 'pass';
    }
    // The next sync reads the records in full, then fetches their pictures (Mirror.sync).
    const report = await mirror.sync(client(), { resources: ['catalogs'], imagery: options() });
    expect(mirror.status().find((s) => s.resource === 'catalogs')?.passMode).toBe('full');
    expect(report.imagery).toMatchObject({ fetched: total, expired: 0 });
    mirror.close();
  });
});

describe('quicklookUrl', () => {
  it('resolves root-relative hrefs against the service and refuses what is not http(s)', () => {
    expect(quicklookUrl('/quicklooks/catalog/a/thumbnail.png?x=1', 'http://h:1/base')?.href).toBe(
      'http://h:1/quicklooks/catalog/a/thumbnail.png?x=1',
    );
    expect(quicklookUrl('https://cdn.example/q.png', 'http://h:1')?.host).toBe('cdn.example');
    for (const href of ['s3://bucket/a.tif', 'file:///etc/passwd', 'data:image/png;base64,AA'])
      expect(quicklookUrl(href, 'http://h:1')).toBeNull();
  });
});
