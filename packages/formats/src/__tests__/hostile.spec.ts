/**
 * Hostile field files made by the test itself (`@eo/formats/testing`): each is refused with a
 * clear FormatError, at once and without reading what it points at (the GeoPackage views of an
 * endless query and of 100 MB rows used to hang or exhaust the importer; a 1 MB KMZ took 1.1 GB).
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { importFile } from '../import';
import {
  bigCellGeoPackage,
  contentsViewGeoPackage,
  generatedColumnGeoPackage,
  hugeRowsViewGeoPackage,
  kmzBomb,
  recursiveViewGeoPackage,
} from '../testing';

async function refusal(name: string, bytes: Uint8Array): Promise<string> {
  try {
    await importFile(name, bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as FormatError).message;
  }
  throw new Error(`${name} was read`);
}

describe('hostile GeoPackages', () => {
  it('a feature table that is a view of an endless recursive query: refused, its query never run', async () => {
    const bytes = recursiveViewGeoPackage();
    expect(bytes.length).toBeLessThan(64 * 1024); // a small file (the writer adds its R-tree and extension tables)
    expect(await refusal('endless.gpkg', bytes)).toMatch(
      /^endless\.gpkg: cannot read it as geopackage: "plots" is a view: GeoPackages are read as stored tables only/,
    );
  });

  it('a view whose rows hold 100 MB of text: refused before a row is read', async () => {
    expect(await refusal('rows.gpkg', hugeRowsViewGeoPackage())).toMatch(/"plots" is a view/);
  });

  it('gpkg_contents itself a view: refused before it is read', async () => {
    expect(await refusal('contents.gpkg', contentsViewGeoPackage())).toMatch(
      /"gpkg_contents" is a view/,
    );
  });

  it('a generated column (computed on read): refused', async () => {
    expect(await refusal('generated.gpkg', generatedColumnGeoPackage())).toMatch(
      /"plots" has a generated column \(big\): GeoPackages are read as stored values only/,
    );
  });

  it('a stored cell over the cell limit: refused naming the table, row and column', async () => {
    expect(await refusal('cell.gpkg', bigCellGeoPackage(2 * 1024 * 1024))).toMatch(
      /"plots", row 1: note holds 2097152 bytes; cells up to 1048576 bytes are read/,
    );
    // Under the limit, the same file reads.
    const ok = await importFile('cell.gpkg', bigCellGeoPackage(1000));
    expect(ok.features[0]!.properties.note).toBe('x'.repeat(1000));
  });
});

describe('KMZ bombs', () => {
  it('a 1 GB doc.kml in a ~1 MB KMZ: refused from the zip directory, nothing inflated', async () => {
    const bytes = kmzBomb(1024);
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    expect(await refusal('bomb.kmz', bytes)).toMatch(
      /the zip inflates to more than 67108864 bytes \(a zip bomb\?\)/,
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('one that lies about its size: inflated no further than it declared', async () => {
    expect(await refusal('liar.kmz', kmzBomb(256, { lie: true }))).toMatch(
      /^liar\.kmz: cannot read it as kmz: /,
    );
  });
});
