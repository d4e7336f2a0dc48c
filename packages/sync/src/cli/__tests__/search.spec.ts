/**
 * `eo search` in-process on a mirror synced from the real service: the flags and bodies mean
 * what `POST /v0/catalogs/search` means (same ids, order and total as the service), and bad
 * input gets the domain schema's field-level errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient, type BodyInput, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
let client: EoClient;
const tmp = tempDir('cli-search');
const db = path.join(tmp.dir, 'mirror.db');

beforeAll(async () => {
  service = await startService();
  client = createEoClient({ baseUrl: service.url, apiKey: service.key });
  const synced = await eo(['sync', '--db', db, '--url', service.url, '--key', service.key]);
  expect(synced.code).toBe(0);
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

interface SearchOutput {
  catalogs: Array<{ id: string }>;
  pagination: { limit: number; offset: number; total: number };
}

async function search(args: string[], stdin?: string): Promise<SearchOutput> {
  const r = await eo(['search', '--db', db, ...args], stdin === undefined ? {} : { stdin });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as SearchOutput;
}

/** What the service answers for the same body: ids in order, and the total. */
async function online(body: BodyInput<'searchCatalogs'>) {
  const r = await client.searchCatalogs(body);
  return { ids: r.catalogs.map((c) => c.id), total: r.pagination.total };
}
const offline = (r: SearchOutput) => ({
  ids: r.catalogs.map((c) => c.id),
  total: r.pagination.total,
});

describe('eo search', () => {
  it('the convenience flags ask what the same body asks the service', async () => {
    const r = await search([
      '--bbox=-20,-60,60,70',
      '--datetime',
      '2023-01-01T00:00:00Z/..',
      '--cloud-max',
      '35',
      '--sort',
      'eo:cloud_cover:desc',
      '--limit',
      '7',
      '--offset',
      '2',
    ]);
    const expected = await online({
      bbox: [-20, -60, 60, 70],
      datetime: '2023-01-01T00:00:00Z/..',
      query: { 'eo:cloud_cover': { lte: 35 } },
      sort_by: [{ field: 'eo:cloud_cover', direction: 'desc' }],
      limit: 7,
      offset: 2,
    });
    expect(expected.ids).toHaveLength(7);
    expect(offline(r)).toEqual(expected);
    expect(r.pagination).toMatchObject({ limit: 7, offset: 2 });
  });

  it('a body from --json, --file or stdin; flags replace its fields', async () => {
    const body: BodyInput<'searchCatalogs'> = {
      collections: ['col-aurora-l2a'],
      query: { gsd: { lt: 5 } },
      sort_by: [{ field: 'datetime', direction: 'asc' }],
      limit: 5,
    };
    const expected = await online(body);
    expect(expected.ids.length).toBeGreaterThan(0);
    expect(offline(await search(['--json', JSON.stringify(body)]))).toEqual(expected);
    const file = path.join(tmp.dir, 'body.json');
    fs.writeFileSync(file, JSON.stringify(body));
    expect(offline(await search(['--file', file]))).toEqual(expected);
    expect(offline(await search(['--file', '-'], JSON.stringify(body)))).toEqual(expected);

    // --cloud-max joins the body's query; --limit replaces its limit; --sort its sort.
    const merged = await search([
      '--json',
      JSON.stringify(body),
      '--cloud-max',
      '50',
      '--limit',
      '3',
      '--sort',
      'eo:cloud_cover,datetime:desc',
    ]);
    expect(offline(merged)).toEqual(
      await online({
        ...body,
        query: { gsd: { lt: 5 }, 'eo:cloud_cover': { lte: 50 } },
        sort_by: [
          { field: 'eo:cloud_cover', direction: 'asc' },
          { field: 'datetime', direction: 'desc' },
        ],
        limit: 3,
      }),
    );
  });

  it('--format table: one row per record and where the page stands', async () => {
    const r = await eo([
      'search',
      '--db',
      db,
      '--format',
      'table',
      '--collections',
      'col-aurora-l2a',
      '--limit',
      '4',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID +COLLECTION +DATETIME +CLOUD % +GSD +PLATFORM$/);
    expect(lines.slice(1, 5).every((l) => l.includes('col-aurora-l2a'))).toBe(true);
    const { total } = await online({ collections: ['col-aurora-l2a'], limit: 1 });
    expect(lines.at(-1)).toBe(`1-4 of ${total}`);
    // A terminal gets the table without asking.
    const tty = await eo(['search', '--db', db, '--limit', '1'], { tty: { stdout: true } });
    expect(tty.stdout).toMatch(/^ID +COLLECTION/);
  });

  it('invalid input: exit 2, the domain schema field by field, then the usage', async () => {
    const bad = await eo([
      'search',
      '--db',
      db,
      '--json',
      '{"limit":0,"query":{"gsd":{}},"sort_by":[{"field":"gsd","direction":"up"}]}',
      '--bbox',
      '10,50,20',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    const lines = bad.stderr.split('\n');
    expect(lines[0]).toBe('eo search: invalid search');
    expect(lines).toContain('  bbox: bbox is four numbers: [min lon, min lat, max lon, max lat]');
    expect(lines).toContain('  limit: limit must be at least 1');
    expect(lines).toContain('  query.gsd: give at least one operator: eq, neq, gt, gte, lt, lte');
    expect(bad.stderr).toMatch(/ {2}sort_by\.0\.direction: /);
    expect(bad.stderr).toMatch(/\nusage: eo search /);

    const nan = await eo(['search', '--db', db, '--bbox', '10,fifty,20,60']);
    expect(nan.code).toBe(2);
    expect(nan.stderr).toContain('--bbox: "fifty" is not a number');
    const json = await eo(['search', '--db', db, '--json', '{bbox:']);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('--json is not valid JSON');
    const both = await eo(['search', '--db', db, '--json', '{}', '--file', 'x.json']);
    expect(both.stderr).toContain('with --json or --file, not both');
    const array = await eo(['search', '--db', db, '--json', '[]']);
    expect(array.stderr).toContain('the search body must be a JSON object');
  });

  it('no mirror yet: exit 1, nothing created', async () => {
    const missing = path.join(tmp.dir, 'nothing-here.db');
    const r = await eo(['search', '--db', missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no database at ${missing}: run \`eo sync\` first`);
    expect(fs.existsSync(missing)).toBe(false);
  });
});
