/**
 * Hostile and broken files: a seeded fuzzer (bounded: a fixed count of mutants per format,
 * the same ones every run) truncates and corrupts valid files of every format; each import
 * either gives a preview or rejects with our FormatError, nothing else. The limits stop zip
 * bombs, too many zip entries, features and positions before they cost memory.
 */
import { createRng } from '@eo/domain/testing';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { exportFeatures, type ExportFormat } from '../export';
import { importFile } from '../import';
import { WORLD } from './fixtures';

function mutate(bytes: Uint8Array, rnd: () => number): Uint8Array {
  const out = Uint8Array.from(bytes);
  const kind = Math.floor(rnd() * 4);
  if (kind === 0) return out.subarray(0, Math.floor(rnd() * out.length)); // truncated
  const at = () => Math.floor(rnd() * out.length);
  if (kind === 1) {
    for (let i = 0, n = 1 + Math.floor(rnd() * 8); i < n; i++) out[at()] = Math.floor(rnd() * 256);
    return out;
  }
  const view = new DataView(out.buffer);
  const i = Math.min(at(), out.length - 4);
  if (kind === 2)
    view.setUint32(i, [0xffffffff, 0x7fffffff, 0, 1e6][Math.floor(rnd() * 4)]!, rnd() < 0.5);
  else out.copyWithin(at(), at(), at()); // a block moved
  return out;
}

const FORMATS: Array<[ExportFormat, string]> = [
  ['geojson', 'geojson'],
  ['kml', 'kml'],
  ['kmz', 'kmz'],
  ['csv', 'csv'],
  ['shp', 'zip'],
  ['gpkg', 'gpkg'],
];
const MUTANTS_PER_FORMAT = 120;

describe('fuzzed and truncated files', () => {
  for (const [format, ext] of FORMATS) {
    it(`${format}: ${MUTANTS_PER_FORMAT} mutants each give a preview or a FormatError`, async () => {
      const data = exportFeatures(WORLD, format, { wkt: true });
      const valid = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      const rng = createRng(0x5eed + ext.length);
      const rnd = () => rng.next();
      let hurt = 0;
      for (let n = 0; n < MUTANTS_PER_FORMAT; n++) {
        const bytes = mutate(valid, rnd);
        try {
          const preview = await importFile(`fuzz.${ext}`, bytes);
          expect(preview.features.length).toBeGreaterThan(0);
          if (preview.features.some((f) => f.problem !== null)) hurt += 1;
        } catch (e) {
          if (!(e instanceof FormatError))
            throw new Error(`mutant ${n} of ${format} threw ${String(e)}`, { cause: e });
          hurt += 1;
        }
      }
      // The fuzzer does reach the error paths: some mutants are refused, whole or by feature.
      expect(hurt).toBeGreaterThan(MUTANTS_PER_FORMAT / 10);
    });
  }
});

/** A GPX of a walked loop and a waypoint, as a GPS app writes it. */
function gpx(): Uint8Array {
  const pts = Array.from({ length: 40 }, (_, i) => {
    const a = (2 * Math.PI * i) / 40;
    return `<trkpt lat="${48.2 + 0.001 * Math.sin(a)}" lon="${16.3 + 0.0015 * Math.cos(a)}"><ele>${180 + i}</ele><time>2026-05-01T06:${String(i).padStart(2, '0')}:00Z</time></trkpt>`;
  }).join('');
  return new TextEncoder().encode(
    `<?xml version="1.0"?><gpx version="1.1" creator="fuzz" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="48.2" lon="16.3"><name>Tor</name></wpt><trk><name>Runde</name><trkseg>${pts}</trkseg></trk></gpx>`,
  );
}

describe('fuzzed GPX', () => {
  it(`gpx: ${MUTANTS_PER_FORMAT} mutants each give a preview or a FormatError`, async () => {
    const valid = gpx();
    expect((await importFile('walk.gpx', valid)).features).toHaveLength(2);
    const rng = createRng(0x69e);
    let hurt = 0;
    for (let n = 0; n < MUTANTS_PER_FORMAT; n++) {
      try {
        const preview = await importFile(
          'fuzz.gpx',
          mutate(valid, () => rng.next()),
        );
        if (preview.features.some((f) => f.problem !== null && f.name !== 'Tor')) hurt += 1;
      } catch (e) {
        if (!(e instanceof FormatError))
          throw new Error(`mutant ${n} of gpx threw ${String(e)}`, { cause: e });
        hurt += 1;
      }
    }
    expect(hurt).toBeGreaterThan(MUTANTS_PER_FORMAT / 10);
  });
});

describe('limits', () => {
  const geojson = (n: number) =>
    new TextEncoder().encode(
      JSON.stringify({
        type: 'FeatureCollection',
        features: Array.from({ length: n }, (_, i) => ({
          type: 'Feature',
          properties: { name: `f${i}` },
          geometry: { type: 'Point', coordinates: [i / 100, 0] },
        })),
      }),
    );
  const rejects = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(FormatError);

  it('file size, feature count and positions in all', async () => {
    await rejects(importFile('big.geojson', geojson(3), { limits: { maxFileBytes: 10 } }));
    await expect(
      importFile('many.geojson', geojson(11), { limits: { maxFeatures: 10 } }),
    ).rejects.toThrow('many.geojson: cannot read it as geojson: more than 10 features');
    await expect(
      importFile('many.geojson', geojson(11), { limits: { maxTotalVertices: 5 } }),
    ).rejects.toThrow('more than 5 positions in all');
    expect(
      (await importFile('ok.geojson', geojson(10), { limits: { maxFeatures: 10 } })).features,
    ).toHaveLength(10);
  });

  it('a zip bomb stops at its declared size, before it is inflated', async () => {
    const bomb = zipSync({ 'doc.kml': new Uint8Array(64 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200_000);
    await expect(
      importFile('bomb.kmz', bomb, { limits: { maxUncompressedBytes: 8 * 1024 * 1024 } }),
    ).rejects.toThrow(/inflates to more than 8388608 bytes \(a zip bomb\?\)/);
  });

  it('a zip bomb that lies about its size inflates no more than it declared', async () => {
    const real = new TextEncoder().encode(`<kml>${' '.repeat(1_000_000)}</kml>`);
    const zip = zipSync({ 'doc.kml': real }, { level: 9 });
    // Declared uncompressed size (central directory, offset 24 of the entry) set to 10 bytes.
    const view = new DataView(zip.buffer);
    const cd = view.getUint32(zip.length - 6, true);
    view.setUint32(cd + 24, 10, true);
    await rejects(importFile('liar.kmz', zip));
  });

  it('too many zip entries', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, new Uint8Array(1)]),
    );
    await expect(
      importFile('many.zip', zipSync(files), { limits: { maxZipEntries: 10 } }),
    ).rejects.toThrow('the zip has more than 10 entries');
  });
});
