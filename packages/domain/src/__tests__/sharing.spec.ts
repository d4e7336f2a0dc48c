/**
 * What laptops carry between them by file: the origin check, the field package's selection and
 * manifest, and the handed-over outbox's shape.
 */
import { describe, expect, it } from 'vitest';
import {
  FIELD_PACKAGE_FORMAT,
  FieldPackageManifest,
  FieldPackageOptions,
  originMismatch,
  OUTBOX_HANDOVER_FORMAT,
  OutboxHandover,
  type HandoverEntry,
} from '../index';

const A = { service: 'https://eo.example', organisation: 'org-a' };

describe('originMismatch', () => {
  it('accepts the same origin, and what either side does not know', () => {
    expect(originMismatch(A, A)).toBeNull();
    expect(originMismatch(A, { service: null, organisation: null })).toBeNull();
    expect(originMismatch({ service: null, organisation: 'org-a' }, A)).toBeNull();
  });

  it('names each difference', () => {
    expect(originMismatch(A, { service: 'https://other.example', organisation: 'org-a' })).toBe(
      "it was made from the service https://eo.example, this laptop's is https://other.example",
    );
    expect(originMismatch(A, { service: 'https://eo.example', organisation: 'org-b' })).toBe(
      "it holds the records of organisation org-a, this laptop's are of org-b",
    );
    expect(originMismatch(A, { service: 'x', organisation: 'y' })).toContain('; ');
  });
});

describe('FieldPackageOptions', () => {
  it('defaults to thumbnails without rasters, and takes each kind of selection', () => {
    const area = FieldPackageOptions.parse({
      selection: { kind: 'area', area: { type: 'Point', coordinates: [11, 44] } },
    });
    expect(area).toMatchObject({ imagery: 'thumbnails', pixels: false });
    for (const selection of [
      { kind: 'aoi', aoiId: 'aoi-1' },
      { kind: 'catalogSearch', name: 'Cloud-free', search: { bbox: [11, 44, 12, 45] } },
      { kind: 'archiveSearch', searchId: 's-1' },
    ])
      expect(FieldPackageOptions.safeParse({ selection }).success).toBe(true);
  });

  it('refuses an unknown selection, a bad area and a budget under 1 MB', () => {
    const bad = [
      { selection: { kind: 'everything' } },
      { selection: { kind: 'area', area: { type: 'Point', coordinates: [200, 0] } } },
      { selection: { kind: 'aoi', aoiId: 'a' }, budgetBytes: 10 },
      { selection: { kind: 'aoi', aoiId: 'a' }, imagery: 'all' },
    ];
    for (const b of bad) expect(FieldPackageOptions.safeParse(b).success).toBe(false);
  });
});

describe('FieldPackageManifest', () => {
  const manifest = {
    format: FIELD_PACKAGE_FORMAT,
    version: 1,
    id: '0b6f0a3c-7a4e-4d21-9d7e-2a4f1c8e9b10',
    createdAt: '2026-11-27T10:00:00.000Z',
    origin: A,
    label: 'Area "North fields"',
    selection: 'area',
    imagery: 'thumbnails',
    pixels: false,
    records: { catalogs: 3, aois: 1 },
    pictures: { count: 3, bytes: 150_000 },
    leftOut: { pictures: 0, bytes: 0 },
  };

  it('reads a manifest and refuses another format', () => {
    expect(FieldPackageManifest.parse(manifest).records).toEqual({ catalogs: 3, aois: 1 });
    expect(FieldPackageManifest.safeParse({ ...manifest, format: 'qgis' }).success).toBe(false);
    expect(FieldPackageManifest.safeParse({ ...manifest, records: { catalogs: -1 } }).success).toBe(
      false,
    );
  });
});

describe('OutboxHandover', () => {
  const entry = (id: string, over: Partial<HandoverEntry> = {}): HandoverEntry => ({
    id,
    kind: 'aoi',
    state: 'queued',
    input: { name: 'Field' },
    dependsOn: [],
    createdAt: 1,
    attempts: 0,
    inDoubt: null,
    remoteId: null,
    ...over,
  });
  const file = (entries: HandoverEntry[]) => ({
    format: OUTBOX_HANDOVER_FORMAT,
    version: 1,
    id: '0b6f0a3c-7a4e-4d21-9d7e-2a4f1c8e9b10',
    createdAt: '2026-11-27T10:00:00Z',
    origin: A,
    entries,
  });
  const one = '11111111-1111-4111-8111-111111111111';
  const two = '22222222-2222-4222-8222-222222222222';

  it('reads queued and sent entries', () => {
    const parsed = OutboxHandover.parse(
      file([entry(one), entry(two, { state: 'sent', remoteId: 'aoi-9', dependsOn: [] })]),
    );
    expect(parsed.entries.map((e) => e.state)).toEqual(['queued', 'sent']);
  });

  it('refuses an entry listed twice, a sent one without its id, and a key that is no UUID', () => {
    const issues = (f: unknown) =>
      OutboxHandover.safeParse(f).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues(file([entry(one), entry(one)]))).toEqual(['entries.1.id: listed twice']);
    expect(issues(file([entry(one, { state: 'sent' })]))).toEqual([
      'entries.0.remoteId: a sent entry names the id it was created with',
    ]);
    expect(OutboxHandover.safeParse(file([entry('not-a-key')])).success).toBe(false);
  });
});
