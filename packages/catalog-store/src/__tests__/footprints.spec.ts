/**
 * The map's footprint table: which ring each record gets, that the writers keep it in step with
 * the records, and that the SQL function the migrations backfill with stores exactly what the
 * writers store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG_FOOTPRINTS_BACKFILL,
  FOOTPRINT_TOLERANCE_DEG,
  footprintBlob,
  footprintPoints,
  footprintRing,
  installFootprintFunction,
} from '../footprints';
import {
  makeCatalogDeleter,
  makeCatalogInserter,
  makeCatalogUpserter,
  type CatalogRecordOut,
} from '../writes';
import { tempCatalog, type TempCatalog } from './temp-store';

const LINKS = { orgId: 'org-1', orderId: null, orderItemId: null };

function record(id: string, geometry: unknown): CatalogRecordOut {
  return {
    id,
    task_id: 'task-1',
    created_at: '2024-01-01T00:00:00Z',
    details: {
      type: 'Feature',
      id: `item-${id}`,
      geometry,
      properties: { datetime: '2024-01-01T00:00:00Z' },
    },
  } as unknown as CatalogRecordOut;
}

const square = (x: number, y: number, d = 1) => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];

let store: TempCatalog;
beforeEach(() => {
  store = tempCatalog('footprints');
});
afterEach(() => store.close());

const stored = () =>
  store.sqlite
    .prepare(
      'SELECT c.id AS id, f.ring AS ring FROM catalog_footprints f JOIN catalog_records c ON c.seq = f.seq ORDER BY c.id',
    )
    .all() as Array<{ id: string; ring: Buffer }>;
const floats = (b: Buffer) => Array.from({ length: b.length / 4 }, (_, i) => b.readFloatLE(i * 4));

describe('footprintRing', () => {
  it("a polygon's outer ring without its closing point; holes are not drawn", () => {
    const ring = footprintRing(
      { type: 'Polygon', coordinates: [square(10, 20), square(10.2, 20.2, 0.1)] },
      null,
    );
    expect(ring).toEqual([10, 20, 11, 20, 11, 21, 10, 21]);
  });

  it("a multi-polygon's largest outer ring", () => {
    const g = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 1)], [square(5, 5, 2)], [square(9, 9, 0.5)]],
    };
    expect(footprintRing(g, null)).toEqual([5, 5, 7, 5, 7, 7, 5, 7]);
  });

  it('drops points closer than the tolerance to the outline, keeps corners', () => {
    const edge = Array.from({ length: 99 }, (_, i) => [
      i / 100,
      (i % 2) * FOOTPRINT_TOLERANCE_DEG * 0.5,
    ]);
    const ring = [...edge, [1, 0], [1, 1], [0, 1], [0, 0]];
    expect(footprintRing({ type: 'Polygon', coordinates: [ring] }, null)).toEqual([
      0, 0, 1, 0, 1, 1, 0, 1,
    ]);
    // A bump above the tolerance stays.
    const bump = [
      [0, 0],
      [0.5, FOOTPRINT_TOLERANCE_DEG * 3],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ];
    expect(footprintRing({ type: 'Polygon', coordinates: [bump] }, null)).toHaveLength(10);
  });

  it('a sliver thinner than the tolerance keeps its three points', () => {
    const sliver = [
      [0, 0],
      [1, 0],
      [0.5, FOOTPRINT_TOLERANCE_DEG / 10],
      [0, 0],
    ];
    expect(footprintRing({ type: 'Polygon', coordinates: [sliver] }, null)).toEqual([
      0,
      0,
      1,
      0,
      0.5,
      FOOTPRINT_TOLERANCE_DEG / 10,
    ]);
  });

  it('other geometries draw their bounds; nothing readable and no bounds draws nothing', () => {
    expect(footprintRing({ type: 'Point', coordinates: [1, 2] }, [1, 2, 1, 2])).toEqual([
      1, 2, 1, 2, 1, 2, 1, 2,
    ]);
    expect(
      footprintRing(
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              ['x', 1],
            ],
          ],
        },
        [0, 0, 1, 1],
      ),
    ).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
    expect(footprintRing('nonsense', null)).toBeNull();
    expect(footprintRing(null, [0, 0, NaN, 1])).toBeNull();
  });

  it('stores Float32 pairs: whole points only', () => {
    const blob = footprintBlob([10.123456789, 20, 11, 20, 11, 21]);
    expect(blob.length).toBe(24);
    expect(floats(blob)[0]).toBe(Math.fround(10.123456789));
    expect(footprintPoints(blob)).toBe(3);
    expect(footprintPoints(blob.subarray(0, 20))).toBeNull();
    expect(footprintPoints(blob.subarray(0, 16))).toBeNull();
  });
});

describe('the writers keep catalog_footprints in step', () => {
  it('insert writes the ring; a record without anything to draw gets no row', () => {
    const insert = makeCatalogInserter(store.sqlite);
    insert(record('a', { type: 'Polygon', coordinates: [square(1, 2)] }), LINKS);
    insert(record('b', null), LINKS);
    expect(stored().map((r) => [r.id, floats(r.ring)])).toEqual([['a', [1, 2, 2, 2, 2, 3, 1, 3]]]);
  });

  it('upsert rewrites the ring, and removes it when the record loses its geometry; delete removes it', () => {
    const upsert = makeCatalogUpserter(store.sqlite, 'lenient');
    upsert(record('a', { type: 'Polygon', coordinates: [square(1, 2)] }), LINKS);
    upsert(record('a', { type: 'Polygon', coordinates: [square(3, 4)] }), LINKS);
    expect(stored().map((r) => floats(r.ring))).toEqual([[3, 4, 4, 4, 4, 5, 3, 5]]);
    upsert(record('a', null), LINKS);
    expect(stored()).toEqual([]);
    upsert(record('a', { type: 'Polygon', coordinates: [square(3, 4)] }), LINKS);
    upsert(record('b', { type: 'Polygon', coordinates: [square(0, 0)] }), LINKS);
    expect(makeCatalogDeleter(store.sqlite)(['a'])).toBe(1);
    expect(stored().map((r) => r.id)).toEqual(['b']);
  });

  it("eo_footprint_ring (the migrations' backfill) stores byte for byte what the writers store", () => {
    installFootprintFunction(store.sqlite);
    const upsert = makeCatalogUpserter(store.sqlite, 'lenient');
    const geometries: unknown[] = [
      { type: 'Polygon', coordinates: [square(1.000001, 2.123456789)] },
      { type: 'MultiPolygon', coordinates: [[square(0, 0, 1)], [square(5, 5, 2)]] },
      { type: 'Point', coordinates: [1, 2] },
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      },
      JSON.stringify({ type: 'Polygon', coordinates: [square(0, 0)] }),
      null,
      42,
    ];
    geometries.forEach((g, i) => upsert(record(`r${i}`, g), LINKS));
    const written = stored();
    expect(written.length).toBeGreaterThanOrEqual(4);
    store.sqlite.exec('DELETE FROM catalog_footprints');
    store.sqlite.exec(CATALOG_FOOTPRINTS_BACKFILL);
    expect(stored()).toEqual(written);
  });
});
