/**
 * GeoJSON files read as a stream (`readGeoJsonFile`): the same features as the whole-text reader
 * (members in any order, escapes cut across chunks, a named CRS, a Feature, a bare geometry);
 * malformed text refused; hostile files (made here) refused by their own clear reason inside a
 * thread of 64 MB heap and 10 s, which proves neither bound was reached: nesting without end,
 * one text of 100 MB, a file of many features past the feature limit, a file over the size
 * limit; a file over the whole-text limit is read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../limits';
import { readGeoJson } from '../read/geojson';
import { readGeoJsonFile } from '../read/geojson-stream';
import { square, writeBigGeoJson, writeHostileGeoJson } from '../testing';
import { importFileInWorker } from '../worker/import-in-worker';
import { refusal } from './refusal';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-geojson-stream-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const HOSTILE = { worker: { heapMb: 64, timeMs: 10_000 } };

function written(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function sameAsWhole(name: string, text: string, chunkBytes?: number) {
  const streamed = await readGeoJsonFile(written(name, text), IMPORT_LIMITS, chunkBytes);
  expect(streamed).toEqual(await readGeoJson(Buffer.from(text), IMPORT_LIMITS));
  return streamed;
}

const plot = (i: number, extra: object = {}) => ({
  type: 'Feature',
  id: `p-${i}`,
  properties: {
    name: `plot "${i}" \\ ${'é→'.repeat(i % 7)}`,
    note: '\\"'.repeat(i % 50),
    n: i,
    ok: i % 2 === 0,
    nothing: null,
    nested: { a: [1, { b: 'c' }] },
  },
  geometry: { type: 'Polygon', coordinates: [square(10 + i * 0.001, 45, 0.0005)] },
  ...extra,
});

describe('readGeoJsonFile', () => {
  it('reads what the whole-text reader reads, across chunk boundaries', async () => {
    // ~600 kB: ten 64 kB chunks, cut inside strings, escapes, numbers and keys.
    const features = Array.from({ length: 1500 }, (_, i) => plot(i));
    const doc = { features, name: 'plots', type: 'FeatureCollection' };
    const read = await sameAsWhole('plots.geojson', `\uFEFF${JSON.stringify(doc, null, 1)}`);
    expect(read.features).toHaveLength(1500);
    expect(read.features[3]!.properties.name).toBe('plot "3" \\ é→é→é→');
    // Read 1 to 7 bytes at a time: every cut, in a character of several bytes and an escape too.
    const few = { type: 'FeatureCollection', features: features.slice(0, 12) };
    for (let chunk = 1; chunk <= 7; chunk++)
      await sameAsWhole('few.geojson', JSON.stringify(few, null, chunk % 3), chunk);
  });

  it('reads a named CRS (after the features), a Feature and a bare geometry', async () => {
    const m = [1113194.9, 5621521.5];
    const ring = [m, [m[0]! + 100, m[1]!], [m[0]! + 100, m[1]! + 100], m];
    const crs = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3857' } };
    const collection = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } },
      ],
      crs,
    };
    const projected = await sameAsWhole('3857.geojson', JSON.stringify(collection));
    expect(projected.sourceCrs).toBe('EPSG:3857');
    const polygon = projected.features[0]!.geometry as { coordinates: number[][][] };
    expect(polygon.coordinates[0]![0]![0]).toBeCloseTo(10, 3);
    expect((await sameAsWhole('one.geojson', JSON.stringify(plot(7)))).features).toHaveLength(1);
    const bare = { coordinates: [square(10, 45, 0.01)], type: 'Polygon' };
    expect((await sameAsWhole('bare.geojson', JSON.stringify(bare))).features).toHaveLength(1);
  });

  it('refuses malformed text with what is wrong', async () => {
    const cases: Array<[string, RegExp]> = [
      ['[1, 2]', /not a GeoJSON object/],
      [
        '{"type":"FeatureCollection","features":[{"type":"Feature"}',
        /ends before its GeoJSON object/,
      ],
      ['{"type":"FeatureCollection","features":[]} {}', /more text after the GeoJSON object/],
      ['{"type":"FeatureCollection","features":[{} {}]}', /feature 2: unexpected "\{"/],
      ['{"type":"FeatureCollection","features":{}}', /a FeatureCollection without a features list/],
      ['{"type":"FeatureCollection","features":[{"type":tru}]}', /JSON/],
    ];
    for (const [text, why] of cases)
      await expect(
        readGeoJsonFile(written('bad.geojson', text), IMPORT_LIMITS),
        text,
      ).rejects.toThrow(why);
  });
});

describe('hostile GeoJSON files, imported by path in a thread of 64 MB and 10 s', () => {
  it('nesting without end: refused at the depth limit, before any of it is parsed', async () => {
    const file = path.join(dir, 'nested.geojson');
    writeHostileGeoJson(file, 'nested', 16 * 1024 * 1024);
    const e = await refusal(importFileInWorker({ path: file }, HOSTILE));
    expect(e.message).toMatch(
      /nested\.geojson: cannot read it as geojson: feature 1: nested deeper than 64 levels, the limit/,
    );
  });

  it('one text of 100 MB: refused at the text limit, the rest never read', async () => {
    const file = path.join(dir, 'string.geojson');
    writeHostileGeoJson(file, 'string', 100 * 1024 * 1024);
    const e = await refusal(importFileInWorker({ path: file }, HOSTILE));
    expect(e.message).toMatch(
      /string\.geojson: cannot read it as geojson: feature 1: a text of more than 1048576 characters, the limit/,
    );
  });

  it('many features: stopped at the feature limit, the rest never read', async () => {
    const file = path.join(dir, 'many.geojson');
    writeBigGeoJson(file, 40 * 1024 * 1024); // ~160,000 features: parsed whole, far over 64 MB
    const e = await refusal(
      importFileInWorker({ path: file }, { ...HOSTILE, limits: { maxFeatures: 1000 } }),
    );
    expect(e.message).toMatch(/many\.geojson: cannot read it as geojson: more than 1000 features/);
  });

  it('a file over the whole-text limit is streamed; one over the size limit refused from its size', async () => {
    const file = path.join(dir, 'big.geojson');
    const n = writeBigGeoJson(file, 2 * 1024 * 1024);
    const limits = { maxTextBytes: 1024 * 1024 };
    // A valid file's read is checked for its result, not its time (a busy machine takes long).
    const valid = { worker: { heapMb: 64, timeMs: 50_000 }, limits };
    const preview = await importFileInWorker({ path: file }, valid);
    expect(preview.format).toBe('geojson');
    expect(preview.features).toHaveLength(n);
    expect(preview.features.every((f) => f.problem === null)).toBe(true);
    const huge = path.join(dir, 'huge.geojson');
    const fd = fs.openSync(huge, 'w');
    fs.ftruncateSync(fd, 300 * 1024 * 1024); // sparse: nothing written, 300 MB long
    fs.closeSync(fd);
    const e = await refusal(importFileInWorker({ path: huge }, HOSTILE));
    expect(e.message).toMatch(
      /huge\.geojson: 314572800 bytes: files up to 268435456 bytes are read/,
    );
  });
});
