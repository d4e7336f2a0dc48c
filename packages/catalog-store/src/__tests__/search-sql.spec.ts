/**
 * The compiled search SQL against the table's indexes and R*Tree (EXPLAIN QUERY PLAN on a real
 * SQLite file), and its statement text: what makes a page an index walk rather than a scan.
 */
import { CatalogSearchRequest } from '@eo/domain';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { COMPACT_LAYOUT, JSON_LAYOUT, type CatalogLayout } from '../layout';
import { makeCatalogSearch } from '../search';
import { catalogSearchStatements, compileCatalogSql } from '../search-sql';
import { makeCatalogInserter, type CatalogRecordOut } from '../writes';
import { tempCatalog } from './temp-store';

const org = 'org-plans';
const store = tempCatalog('search-sql');
afterAll(() => store.close());

/** One record at (lon, lat) on a given day (its id orders as the day). */
function record(day: number, lon: number, lat: number, cloud: number): CatalogRecordOut {
  return {
    id: `rec-${String(day).padStart(2, '0')}`,
    task_id: null,
    org_id: org,
    delivery_status: 'SUCCESSFUL',
    details: {
      type: 'Feature',
      id: `item-${day}`,
      collection: day % 2 === 0 ? 'even' : 'odd',
      geometry: { type: 'Point', coordinates: [lon, lat] },
      assets: {},
      links: [],
      stac_extensions: [],
      properties: {
        datetime: `2024-03-${String(day).padStart(2, '0')}T00:00:00Z`,
        'eo:cloud_cover': cloud,
      },
    },
  } as unknown as CatalogRecordOut;
}

const insert = makeCatalogInserter(store.sqlite);
store.sqlite.transaction(() => {
  for (let day = 1; day <= 20; day++) {
    // Half the records straddle the antimeridian, half sit near (10, 10).
    const lon = day % 2 === 0 ? 179.5 : day % 4 === 1 ? -179.5 : 10.5;
    insert(record(day, lon, day % 4 === 3 ? 10.5 : 0, day * 5), {
      orgId: org,
      orderId: null,
      orderItemId: null,
    });
  }
})();
const search = makeCatalogSearch(store.sqlite);

function plan(body: object, on = store, layout?: CatalogLayout) {
  const c = compileCatalogSql(org, CatalogSearchRequest.parse(body), layout);
  // A packed record has no JSON column: the mirror's pages select row numbers.
  const sql = catalogSearchStatements(c, layout?.name === 'compact' ? 'c.seq' : undefined);
  const params = { ...c.params, token: 0, limit: 100, offset: 0 };
  const explain = (s: string) =>
    (on.sqlite.prepare(`EXPLAIN QUERY PLAN ${s}`).all(params) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');
  return {
    count: explain(sql.count),
    page: explain(sql.page),
    pageWithTotal: explain(sql.pageWithTotal),
  };
}

const ids = (body: object) =>
  search(org, CatalogSearchRequest.parse(body)).json.map(
    (j) => (JSON.parse(j) as { id: string }).id,
  );

describe('catalog search SQL', () => {
  it('drives bbox and intersects searches from the R*Tree, never a full scan', () => {
    for (const body of [
      { bbox: [10, 10, 11, 11] },
      { bbox: [170, -10, -170, 10], datetime: '2024-01-01T00:00:00Z/..' },
      {
        intersects: { type: 'Point', coordinates: [1, 1] },
        query: { 'eo:cloud_cover': { lt: 10 } },
      },
    ]) {
      for (const p of Object.values(plan(body))) {
        expect(p).toMatch(/VIRTUAL TABLE INDEX/);
        expect(p).not.toMatch(/SCAN c\b/);
        expect(p).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
      }
    }
  });

  it('walks the (org, datetime desc, id) index for the default order, without a sort', () => {
    const p = plan({ query: { 'eo:cloud_cover': { lt: 10 } } }).page;
    expect(p).toMatch(/catalog_org_dt_desc|catalog_org_collection_dt/);
    expect(p).not.toMatch(/TEMP B-TREE/);
    expect(plan({ collections: ['even'] }).page).not.toMatch(/TEMP B-TREE/);
  });

  it('walks the same index backwards for oldest first, sorting only ties on the instant', () => {
    const oldest = { sort_by: [{ field: 'datetime', direction: 'asc' }] };
    for (const body of [oldest, { ...oldest, collections: ['even'] }]) {
      const p = plan(body).page;
      expect(p).toMatch(/catalog_org_dt_desc|catalog_org_collection_dt/);
      expect(p).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
    expect(ids({ ...oldest, limit: 3 })).toEqual(['rec-01', 'rec-02', 'rec-03']);
    expect(ids({ ...oldest, limit: 2, offset: 18 })).toEqual(['rec-19', 'rec-20']);
  });

  it('a box across the antimeridian finds the footprints on both sides, newest first', () => {
    expect(ids({ bbox: [179, -1, -179, 1], limit: 3 })).toEqual(['rec-20', 'rec-18', 'rec-17']);
    expect(search(org, CatalogSearchRequest.parse({ bbox: [179, -1, -179, 1] })).total).toBe(15);
  });

  it('binds id lists as one JSON parameter: the statement text does not grow with the list', () => {
    const text = (list: string[]) =>
      catalogSearchStatements(compileCatalogSql(org, CatalogSearchRequest.parse({ ids: list })))
        .page;
    expect(text(['rec-01'])).toBe(text(['rec-01', 'rec-02', 'rec-03']));
    expect(ids({ ids: ['rec-03', 'rec-01', 'nope'] })).toEqual(['rec-03', 'rec-01']);
  });

  it('marks the search that nothing but the organisation narrows (the one kept for launches)', () => {
    const every = (body: object) =>
      compileCatalogSql(org, CatalogSearchRequest.parse(body), COMPACT_LAYOUT).everyRecord;
    expect(every({})).toBe(true);
    expect(every({ sort_by: byCloud.sort_by, limit: 5, offset: 10 })).toBe(true);
    for (const body of [
      { ids: ['rec-01'] },
      { collections: ['even'] },
      { datetime: '2024-03-02T00:00:00Z/..' },
      { bbox: [10, 10, 11, 11] },
      { query: { 'eo:cloud_cover': { lt: 10 } } },
    ])
      expect(every(body)).toBe(false);
  });

  it('scopes every search to its organisation', () => {
    expect(search('another-org', CatalogSearchRequest.parse({}))).toEqual({ json: [], total: 0 });
  });
});

/** The mirror's store: the compact layout, every record of one organisation. */
const mirror = tempCatalog('search-sql-one-org', COMPACT_LAYOUT);
afterAll(() => mirror.close());
const insertPacked = makeCatalogInserter(mirror.sqlite, 'strict', COMPACT_LAYOUT);
mirror.sqlite.transaction(() => {
  for (let day = 1; day <= 20; day++) {
    // Cloud cover in another order than the days: 35, 70, 5, 40, ...
    insertPacked(record(day, 10.5, 0, (day * 35) % 100), {
      orgId: org,
      orderId: null,
      orderItemId: null,
    });
  }
})();
const searchPacked = makeCatalogSearch(mirror.sqlite, COMPACT_LAYOUT);
const onMirror = (body: object) => plan(body, mirror, COMPACT_LAYOUT);
const byCloud = { sort_by: [{ field: 'eo:cloud_cover', direction: 'asc' }] };

describe('catalog search SQL on a store of one organisation (the mirror)', () => {
  it('sorts on a key no index gives by scanning the table, not by looking up every row from the datetime index', () => {
    // Taken for a selective term, `org_id = ?` made SQLite walk (org, datetime) and look up each
    // row: ~0.45 s a page on 100,000 records, where this scan takes ~55 ms.
    for (const body of [
      byCloud,
      { sort_by: [{ field: 'gsd', direction: 'desc' }] },
      { ...byCloud, query: { 'eo:cloud_cover': { lt: 50 } } },
    ]) {
      const p = onMirror(body).page;
      expect(p).toMatch(/^SCAN c$/m);
      expect(p).not.toMatch(/catalog_org_dt_desc/);
    }
    const ids = searchPacked(org, CatalogSearchRequest.parse({ ...byCloud, limit: 4 })).json.map(
      (j) => (JSON.parse(j) as { id: string }).id,
    );
    // Cloud 0 (day 20), 5 (day 3), 10 (day 6), 15 (day 9).
    expect(ids).toEqual(['rec-20', 'rec-03', 'rec-06', 'rec-09']);
  });

  it('still walks the datetime index for a datetime range, and newest first without a sort', () => {
    const ranged = onMirror({ ...byCloud, datetime: '2024-03-02T00:00:00Z/2024-03-04T00:00:00Z' });
    expect(ranged.page).toMatch(
      /catalog_org_dt_desc \(org_id=\? AND datetime_us>\? AND datetime_us<\?\)/,
    );
    const newest = onMirror({});
    expect(newest.page).toMatch(/catalog_org_dt_desc/);
    expect(newest.page).not.toMatch(/TEMP B-TREE/);
    // The count of every record reads the smaller of the two indexes that hold `org_id`.
    expect(newest.count).toMatch(/COVERING INDEX catalog_org_dt_desc/);
  });

  it('offers a page that scans for a datetime range sorted by a key no index gives', () => {
    const range = { datetime: '2024-03-02T00:00:00Z/2024-03-04T00:00:00Z' };
    const compiled = (body: object, layout: CatalogLayout = COMPACT_LAYOUT) =>
      compileCatalogSql(org, CatalogSearchRequest.parse(body), layout);
    const scan = compiled({ ...byCloud, ...range }).scanWhere;
    expect(scan).toMatch(/\+c\.datetime_us >= @p\d+ AND \+c\.datetime_us <= @p\d+/);
    const page = catalogSearchStatements(compiled({ ...byCloud, ...range }), 'c.seq').scanningPage!;
    const explain = mirror.sqlite
      .prepare(`EXPLAIN QUERY PLAN ${page}`)
      .all({ ...compiled({ ...byCloud, ...range }).params, limit: 10, offset: 0 }) as Array<{
      detail: string;
    }>;
    expect(explain.map((r) => r.detail).join('\n')).toMatch(/^SCAN c$/m);
    // Not when the index gives the order, or another filter has an index, or on the service's
    // store of many organisations.
    for (const body of [
      range,
      { ...range, sort_by: [{ field: 'datetime', direction: 'asc' }] },
      { ...byCloud, ...range, collections: ['even'] },
      { ...byCloud, ...range, ids: ['rec-03'] },
      { ...byCloud, ...range, bbox: [0, -1, 20, 1] },
      byCloud,
    ])
      expect(compiled(body).scanWhere).toBeNull();
    expect(compiled({ ...byCloud, ...range }, JSON_LAYOUT).scanWhere).toBeNull();
  });

  it('scans a datetime range holding more than an eighth of the rows, walks the index for less', () => {
    const pages = (body: object) => {
      const prepare = vi.spyOn(mirror.sqlite, 'prepare');
      try {
        // A search of its own: its statements are prepared on first use.
        const found = makeCatalogSearch(mirror.sqlite, COMPACT_LAYOUT)(
          org,
          CatalogSearchRequest.parse({ ...byCloud, ...body }),
        );
        const sql = prepare.mock.calls.map(([text]) => text).filter((t) => t.includes('LIMIT'));
        return { sql, total: found.total, ids: found.json.map((j) => JSON.parse(j).id) };
      } finally {
        prepare.mockRestore();
      }
    };
    // 2 of 20 days: walked from the index.
    const narrow = pages({ datetime: '2024-03-02T00:00:00Z/2024-03-03T23:00:00Z' });
    expect(narrow.total).toBe(2);
    expect(narrow.sql).toHaveLength(1);
    expect(narrow.sql[0]).not.toMatch(/\+c\.datetime_us/);
    // 10 of 20 days: scanned, with the same answer the index gives.
    const wide = pages({ datetime: '2024-03-01T00:00:00Z/2024-03-10T23:00:00Z' });
    expect(wide.total).toBe(10);
    expect(wide.sql).toHaveLength(1);
    expect(wide.sql[0]).toMatch(/\+c\.datetime_us >=/);
    // Cloud cover (day * 35) % 100: day 3 -> 5, 6 -> 10, 9 -> 15, 1 -> 35, ...
    expect(wide.ids.slice(0, 4)).toEqual(['rec-03', 'rec-06', 'rec-09', 'rec-01']);
  });

  it('reads an id list through the ids index instead of walking every record', () => {
    expect(onMirror({ ids: ['rec-03', 'rec-01'] }).page).toMatch(/catalog_records_id_unique/);
    expect(onMirror({ ...byCloud, ids: ['rec-03', 'rec-01'] }).page).toMatch(
      /catalog_records_id_unique/,
    );
  });

  it("leaves the service's store (many organisations) searched through its organisation's index", () => {
    expect(plan(byCloud).page).toMatch(/SEARCH c USING INDEX catalog_org_/);
    expect(
      catalogSearchStatements(compileCatalogSql(org, CatalogSearchRequest.parse({}))).page,
    ).not.toMatch(/likelihood/);
  });
});

describe('bbox searches', () => {
  it('take a record whose bounds lie strictly inside a box from its columns, and test the others exactly', () => {
    const db = tempCatalog('search-sql-bbox');
    try {
      const insert = makeCatalogInserter(db.sqlite);
      const links = { orgId: org, orderId: null, orderItemId: null };
      insert(record(1, 10.5, 10.5, 5), links); // inside (10, 10, 11, 11)
      insert(record(2, 11, 10.5, 5), links); // on its east edge: not strictly inside
      insert(record(3, 179.5, 0, 5), links); // inside the first box of (179, -1, -179, 1)
      // Every stored footprint moved far away, the bounds columns left as they were: only the
      // exact test reads the footprint, so what it is spared shows.
      db.sqlite.exec(
        `UPDATE catalog_records SET record_json = json_set(record_json, '$.details.geometry',
           json('{"type":"Point","coordinates":[100,50]}'))`,
      );
      const found = (bbox: number[]) =>
        makeCatalogSearch(db.sqlite)(org, CatalogSearchRequest.parse({ bbox })).json.map(
          (j) => (JSON.parse(j) as { id: string }).id,
        );
      expect(found([10, 10, 11, 11])).toEqual(['rec-01']);
      expect(found([179, -1, -179, 1])).toEqual(['rec-03']);
      expect(found([99, 49, 101, 51])).toEqual([]); // the R*Tree still decides the candidates
    } finally {
      db.close();
    }
  });
});
