/**
 * `eo package export` and `eo package import` in-process, offline: the plan before writing, a
 * package of a field file's area, taken in by another laptop's mirror (and again: nothing
 * doubles), refused by a mirror of another organisation with nothing changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { everything, syntheticMirror } from '../../field-package/__tests__/synthetic';
import { eo } from './run-eo';

const tmp = tempDir('cli-package');
afterAll(() => tmp.remove());
const office = syntheticMirror(tmp.dir, 'office');
const area = path.join(tmp.dir, 'site.geojson');
fs.writeFileSync(
  area,
  JSON.stringify({
    type: 'Feature',
    properties: { name: 'Everywhere' },
    geometry: {
      type: 'Polygon',
      coordinates: [
        // Edges under 180° of longitude: a longer one would be read as crossing the antimeridian.
        [
          [-179, -89],
          [0, -89],
          [179, -89],
          [179, 89],
          [0, 89],
          [-179, 89],
          [-179, -89],
        ],
      ],
    },
  }),
);
const out = path.join(tmp.dir, 'stick', 'site.gpkg');
fs.mkdirSync(path.dirname(out));

describe('eo package', () => {
  it('export --dry-run says what the package will hold and writes nothing', async () => {
    const run = await eo([
      'package',
      'export',
      '--db',
      office,
      '--area',
      area,
      '--dry-run',
      '--format',
      'table',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Area "site": about \d+\.\d MB\n/);
    expect(run.stdout).toMatch(/^catalogs\s+4$/m);
    expect(run.stdout).toContain('pictures: 4 thumbnails, 0 overviews, 0 index maps');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('export writes the package; import merges it, and again changes nothing', async () => {
    const written = await eo(['package', 'export', '--db', office, '--area', area, '--out', out]);
    expect(written.code).toBe(0);
    const result = (JSON.parse(written.stdout) as { written: { file: string; bytes: number } })
      .written;
    expect(result).toMatchObject({ file: out, bytes: fs.statSync(out).size });
    // The build beside the database is gone once the package is where it was asked for.
    expect(fs.readdirSync(`${office}.packages`)).toEqual([]);

    const field = path.join(tmp.dir, 'field', 'mirror.sqlite');
    const first = await eo(['package', 'import', out, '--db', field, '--format', 'table']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^catalogs\s+4\s+0\s+0$/m);
    expect(first.stdout).toMatch(/^pictures\s+4\s+0\s+0$/m);
    const again = await eo(['package', 'import', out, '--db', field, '--format', 'json']);
    expect(JSON.parse(again.stdout)).toMatchObject({
      records: { catalogs: { added: 0, updated: 0, kept: 4 } },
      pictures: { added: 0, kept: 4 },
    });
  });

  it('import refuses a package from another organisation, changing nothing', async () => {
    const other = syntheticMirror(tmp.dir, 'other', { organisation: 'org-elsewhere' });
    const before = everything(other);
    const run = await eo(['package', 'import', out, '--db', other]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `eo package import: ${out}: The package is from another origin: it holds the records of organisation org-site, this laptop's are of org-elsewhere. Nothing was changed.\n`,
    );
    expect(everything(other)).toBe(before);
  });

  it('import --dry-run describes a package; a file that is none is refused', async () => {
    const run = await eo([
      'package',
      'import',
      out,
      '--dry-run',
      '--db',
      office,
      '--format',
      'table',
    ]);
    expect(run.stdout).toMatch(
      /^Area "site": \d+ records, 4 pictures, \d+\.\d MB; made .* from https:\/\/eo\.example \(organisation org-site\); dry run: nothing merged\n$/,
    );
    const bad = await eo(['package', 'import', area, '--db', office]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('the file is too small');
  });

  it('export needs one selection and a file to write', async () => {
    const none = await eo(['package', 'export', '--db', office, '--out', out]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give one of --area FILE, --aoi ID or --search NAME');
    const noOut = await eo(['package', 'export', '--db', office, '--aoi', 'aoi-1']);
    expect(noOut.stderr).toContain('a package is a file: give --out FILE');
    const unknown = await eo(['package', 'export', '--db', office, '--aoi', 'nope', '--dry-run']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'eo package export: AOI nope is not in this mirror: sync it first\n',
    );
  });
});
