/**
 * A catalog record is stored as the characters its page carried (the api-client's
 * `itemTexts`), not as `JSON.stringify` of it parsed: through the misbehaving proxy, the
 * reference service's catalog pages are spaced out and a number is spelled otherwise (as another
 * service might write them), and every mirrored record's text is the one sent. A page the client changed (a default filled
 * in) is stored as before, from the record as read.
 */
import { COMPACT_LAYOUT } from '@eo/catalog-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isList,
  startMisbehavingService,
  type MisbehavingService,
} from '../../__tests__/misbehaving-service';
import { mirrorFiles } from '../../db/__tests__/temp';
import type { MirrorDatabase } from '../../db/open';
import { createSyncEngine } from '../engine';

let svc: MisbehavingService;
const files = mirrorFiles('record-texts');
beforeAll(async () => {
  svc = await startMisbehavingService();
});
afterAll(async () => {
  files.close();
  await svc.close();
});

interface Page {
  catalogs: Array<Record<string, unknown> & { id: string; details: Record<string, unknown> }>;
}

/** Each ground sample distance spelled with an exponent: the same number, other characters. */
const spelled = (text: string) => text.replace(/("gsd": )(-?[\d.]+)/g, '$1$2e0');

/** Answers catalog pages as `rewrite` makes them from the service's, spaced out by one. */
function catalogPagesAs(rewrite: (page: Page) => Page) {
  return svc.proxy.use('spaced-out catalog pages', isList('/v0/catalogs/search'), async (x) => {
    const up = await x.forward();
    const body = spelled(JSON.stringify(rewrite(up.json() as Page), null, 1));
    return { status: up.status, headers: { 'content-type': 'application/json' }, body };
  });
}

const storedTexts = (db: MirrorDatabase) =>
  new Map(
    (
      db.sqlite
        .prepare(`SELECT c.id, ${COMPACT_LAYOUT.recordSql} AS json FROM catalog_records c`)
        .all() as Array<{ id: string; json: string }>
    ).map((r) => [r.id, r.json]),
  );

/** What the service sends, read straight from it (the records as parsed). */
async function serviceRecords() {
  const out = new Map<string, Record<string, unknown>>();
  for await (const page of svc.direct.pages.catalogs({}, { pageSize: 100 }))
    for (const r of page.items) out.set(r.id, r as unknown as Record<string, unknown>);
  return out;
}

describe('catalog records stored as their pages carried them', () => {
  it("keeps each record's own characters: its spacing, its numbers' spelling", async () => {
    const stop = catalogPagesAs((page) => page);
    try {
      const db = files.fresh();
      const { client } = svc.client();
      await createSyncEngine({ db, client, pageSize: 40 }).sync({ resources: ['catalogs'] });
      const expected = await serviceRecords();
      const stored = storedTexts(db);
      expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [id, record] of expected) {
        // The record's text inside a page written with an indent of 1: two levels deep.
        const sent = spelled(JSON.stringify(record, null, 1).replace(/\n/g, '\n  '));
        expect(sent).toMatch(/"gsd": [\d.]+e0/);
        expect(stored.get(id), id).toBe(sent);
      }
    } finally {
      stop();
    }
  });

  it('stores a page the client changed from the records as read', async () => {
    // One record per page without `links`: the client fills in `[]`, so its page is not as sent.
    const stop = catalogPagesAs((page) => {
      const [first, ...rest] = page.catalogs;
      if (!first) return page;
      const { links: _links, ...details } = first.details;
      return { ...page, catalogs: [{ ...first, details }, ...rest] };
    });
    try {
      const db = files.fresh();
      const { client } = svc.client();
      await createSyncEngine({ db, client, pageSize: 40 }).sync({ resources: ['catalogs'] });
      const stored = storedTexts(db);
      expect(stored.size).toBeGreaterThan(40);
      for (const [id, json] of stored) {
        expect(json, id).not.toContain('\n');
        expect((JSON.parse(json) as { details: { links: unknown } }).details.links).toBeDefined();
      }
    } finally {
      stop();
    }
  });
});
