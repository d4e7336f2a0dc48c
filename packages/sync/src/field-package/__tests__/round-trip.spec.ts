/**
 * A field package written from a synced mirror and taken in by others (real service, real
 * SQLite files, GDAL as the judge of the GeoPackage):
 * - QGIS's GDAL lists the layers with the right counts and geometry types, and the file passes
 *   GDAL's GeoPackage validator;
 * - a fresh mirror that takes it in holds the same records (equal by id and content, so by
 *   `updated_at`) and the same pictures; taken in again, nothing changes;
 * - a mirror with overlapping records keeps those newer than the package's, takes those older,
 *   keeps its own, and duplicates nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FieldPackageOptions, type FieldPackageOptionsInput } from '@eo/domain';
import { gpkgProblems, ogrLayers } from '@eo/formats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { makeMirrorWriters } from '../../mirror/writers';
import type { WrittenPackage } from '../write';
import { changeTimes, snapshotOf, startSite, type Site } from './site';

const WORLD = {
  type: 'Polygon',
  coordinates: [
    [
      [-180, -90],
      [180, -90],
      [180, 90],
      [-180, 90],
      [-180, -90],
    ],
  ],
};
const options = (o: FieldPackageOptionsInput) => FieldPackageOptions.parse(o);
const everything = options({ selection: { kind: 'area', area: WORLD, name: 'World' } });

let site: Site;
let written: WrittenPackage;
beforeAll(async () => {
  site = await startSite();
  written = site.office.packages.write(everything, path.join(site.dir, 'world.gpkg'));
}, 120_000);
afterAll(async () => site?.close());

describe('a field package as GIS software sees it', () => {
  it('passes GDAL’s GeoPackage validator', () => {
    expect(gpkgProblems(written.file)).toBe('');
  });

  it('lists the layers with their counts and geometry types', () => {
    const counts = site.office.counts();
    expect(counts.catalogs).toBe(15);
    const layers = Object.fromEntries(ogrLayers(written.file).map((l) => [l.name, l]));
    expect(layers['catalog_footprints']).toEqual({
      name: 'catalog_footprints',
      geometry: 'Polygon',
      count: counts.catalogs,
    });
    expect(layers['aois']).toEqual({ name: 'aois', geometry: 'Polygon', count: 1 });
    expect(layers['order_items']).toEqual({ name: 'order_items', geometry: 'Polygon', count: 2 });
    expect(layers['archive_scenes']?.count).toBe(0);
    // Every catalog record's thumbnail, related to its footprint.
    expect(layers['quicklooks']).toEqual({ name: 'quicklooks', geometry: 'None', count: 15 });
    expect(layers['catalog_footprints_quicklooks']?.count).toBe(15);
    // Our own tables are no layers.
    expect(Object.keys(layers).filter((n) => n.startsWith('eo_'))).toEqual([]);
  });

  it('says what it holds before it is written, and the manifest agrees', () => {
    const plan = site.office.packages.plan(everything);
    expect(plan).toMatchObject({
      label: 'Area "World"',
      records: { orders: 2, orderItems: 2, aois: 1, catalogs: 15 },
      pictures: { thumbnail: 15, overview: 0, indexMap: 0 },
      leftOut: { pictures: 0, bytes: 0 },
      budgetBytes: null,
    });
    expect(written.manifest.records).toEqual(plan.records);
    expect(written.manifest.origin).toEqual(site.office.origin());
    expect(site.office.origin()).toEqual({
      service: site.url,
      organisation: expect.any(String) as string,
    });
  });
});

describe('taking a package in', () => {
  it('a fresh mirror holds the same records and pictures, and adopts the origin', async () => {
    const fresh = site.mirror('fresh');
    const report = await fresh.packages.import(written.file);
    expect(report.records.catalogs).toEqual({ added: 15, updated: 0, kept: 0 });
    expect(report.pictures).toEqual({ added: 15, updated: 0, kept: 0 });
    expect(snapshotOf(fresh)).toEqual(snapshotOf(site.office));
    const picture = (m: typeof fresh, id: string) =>
      m.imagery.get(id, 'thumbnail')?.toString('base64').slice(0, 64) ?? null;
    for (const id of Object.keys(snapshotOf(site.office).catalogs)) {
      const theirs = site.office.imagery.get(id, 'thumbnail')!;
      expect(fresh.imagery.get(id, 'thumbnail')?.equals(theirs), id).toBe(true);
      expect(picture(fresh, id)).toBe(picture(site.office, id));
    }
    expect(fresh.origin()).toEqual(site.office.origin());
    // Offline search answers the same on both.
    const body = { bbox: [-180, -90, 180, 90], limit: 100 };
    expect(fresh.catalog.search(body)).toEqual(site.office.catalog.search(body));

    // Taken in again: everything is kept as it is, nothing doubled.
    const again = await fresh.packages.import(written.file);
    expect(again.records.catalogs).toEqual({ added: 0, updated: 0, kept: 15 });
    expect(again.pictures).toEqual({ added: 0, updated: 0, kept: 15 });
    expect(snapshotOf(fresh)).toEqual(snapshotOf(site.office));
  });

  it('a mirror with overlapping records keeps the newer of each and all of its own', async () => {
    const ours = site.mirror('overlap');
    const office = snapshotOf(site.office);
    const shift = (iso: unknown, days: number) =>
      new Date(Date.parse(String(iso)) + days * 86_400_000).toISOString();
    const [olderOrder, newerOrder] = Object.values(office.orders) as Array<Record<string, unknown>>;
    const [olderRecord, newerRecord] = Object.values(office.catalogs) as Array<
      Record<string, unknown>
    >;
    const local = openMirrorDatabase(ours.file);
    try {
      const w = makeMirrorWriters(local.sqlite);
      local.sqlite.transaction(() => {
        w.orders.write(
          [
            { ...olderOrder, updated_at: shift(olderOrder!.updated_at, -1), status: 'CANCELLED' },
            { ...newerOrder, updated_at: shift(newerOrder!.updated_at, 1), status: 'COMPLETED' },
            { ...olderOrder, id: 'order-of-this-laptop' },
          ],
          'pass-1',
        );
        w.catalogs.write(
          [
            { ...olderRecord, updated_at: shift(olderRecord!.updated_at, -1), title: 'old' },
            { ...newerRecord, updated_at: shift(newerRecord!.updated_at, 1), title: 'mine' },
            { ...olderRecord, id: 'cat-of-this-laptop' },
          ],
          'pass-1',
        );
      })();
    } finally {
      local.close();
    }

    const report = await ours.packages.import(written.file);
    expect(report.records.orders).toEqual({ added: 0, updated: 1, kept: 1 });
    expect(report.records.catalogs).toEqual({ added: 13, updated: 1, kept: 1 });

    const after = snapshotOf(ours);
    const times = changeTimes(after);
    const expected = changeTimes(office);
    // The package's newer records won, this laptop's newer ones stayed, its own are all there.
    expect(after.orders[String(olderOrder!.id)]).toEqual(olderOrder);
    expect(after.orders[String(newerOrder!.id)]).toMatchObject({ status: 'COMPLETED' });
    expect(after.orders['order-of-this-laptop']).toBeDefined();
    expect(after.catalogs[String(olderRecord!.id)]).toEqual(olderRecord);
    expect(after.catalogs[String(newerRecord!.id)]).toMatchObject({ title: 'mine' });
    expect(after.catalogs['cat-of-this-laptop']).toBeDefined();
    for (const resource of ['orderItems', 'aois', 'assets', 'indices'] as const)
      expect(times[resource]).toEqual(expected[resource]);
    // Each id once: the package's ids and this laptop's own, nothing else.
    expect(Object.keys(after.orders).sort()).toEqual(
      [...Object.keys(office.orders), 'order-of-this-laptop'].sort(),
    );
    expect(Object.keys(after.catalogs).sort()).toEqual(
      [...Object.keys(office.catalogs), 'cat-of-this-laptop'].sort(),
    );
    expect(ours.counts().catalogs).toBe(16);
    // The R*Tree and footprints follow the merged records (offline search finds all 16 once).
    expect(ours.catalog.search({ bbox: [-180, -90, 180, 90], limit: 100 }).pagination.total).toBe(
      16,
    );
  });

  it('a smaller area takes only what meets it', () => {
    const aoi = Object.values(snapshotOf(site.office).aois)[0] as { aoi_id: string };
    const plan = site.office.packages.plan(
      options({ selection: { kind: 'aoi', aoiId: aoi.aoi_id } }),
    );
    expect(plan.records.aois).toBe(1);
    expect(plan.records.catalogs ?? 0).toBeLessThan(15);
    expect(plan.label).toMatch(/^AOI "Maize 2024"$/);
  });

  it('fits a budget by leaving pictures out, and refuses one the records alone exceed', () => {
    const size = written.bytes;
    const tight = site.office.packages.plan({ ...everything, budgetBytes: size - 200_000 });
    expect(tight.leftOut.pictures).toBeGreaterThan(0);
    expect(tight.estimatedBytes).toBeLessThanOrEqual(size - 200_000);
    expect(() =>
      site.office.packages.plan({ ...everything, budgetBytes: 1024 * 1024 }),
    ).not.toThrow();
    expect(fs.existsSync(written.file)).toBe(true);
  });
});
