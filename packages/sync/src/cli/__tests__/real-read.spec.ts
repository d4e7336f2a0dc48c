/**
 * `eo sync`, `eo status --drift` and `eo search` against a service that answers as a real one
 * may (`varied-service.ts`): drift is announced and listed, records that could not be indexed
 * are counted, and a pass short of the service's total is warned about.
 */
import path from 'node:path';
import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startVariedService, type VariedService } from '../../__tests__/varied-service';
import { eo } from './run-eo';

const tmp = tempDir('cli-real-read');
let service: VariedService;
beforeAll(async () => {
  service = await startVariedService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const rng = createRng(5);
const record = (id: unknown, over: Record<string, unknown> = {}) => ({
  ...buildCatalogRecord({}, { rng }),
  id,
  ...over,
});

describe('eo against a real service', () => {
  it('announces drift, lists it with --drift, and eo search counts what is not indexed', async () => {
    const good = Array.from({ length: 5 }, (_, i) => record(`cat-${i}`));
    const odd = [
      record('odd-nano', { created_at: '2024-03-01T10:00:00.123456789Z' }),
      record('odd-null-details', { details: null }),
      record(77),
      record(null),
    ];
    const unreadable = record('odd-datetime');
    (unreadable.details.properties as Record<string, unknown>).datetime = 'later';
    service.data = { ...service.data, catalogs: [...good, ...odd, unreadable] };
    const env = { EO_URL: service.url, EO_API_KEY: service.key, EO_DB: path.join(tmp.dir, 'a.db') };

    const sync = await eo(['sync', '--resources', 'catalogs'], { env });
    expect(sync.code).toBe(0);
    expect(sync.stderr).toContain('eo: 5 records differ from the spec: eo status --drift\n');
    expect(sync.stderr).toContain('eo: catalogs: 1 records could not be indexed');

    const drift = await eo(['status', '--drift', '--format', 'json'], { env });
    expect(drift.code).toBe(0);
    const [catalogs] = (
      JSON.parse(drift.stdout) as {
        resources: Array<{
          resource: string;
          drift: number;
          skipped: number;
          notIndexed: number;
          samples: Array<{
            source: string;
            recordId: string | null;
            path: string;
            message: string;
          }>;
        }>;
      }
    ).resources;
    expect(catalogs).toMatchObject({ resource: 'catalogs', drift: 5, skipped: 1, notIndexed: 1 });
    expect(catalogs!.samples).toContainEqual({
      source: 'skipped',
      recordId: null,
      path: 'id',
      message: 'catalogs (no id): id: no usable id (received null); the record was not stored',
    });
    expect(catalogs!.samples.map((s) => s.recordId)).toEqual(
      expect.arrayContaining(['odd-nano', 'odd-null-details', '77', 'odd-datetime']),
    );

    const table = await eo(['status', '--drift', '--format', 'table'], { env });
    expect(table.stdout).toMatch(/catalogs +5 +1 +1/);
    expect(table.stdout).toMatch(/not-indexed +odd-datetime +details\.properties\.datetime/);

    const search = await eo(['search', '--format', 'table', '--limit', '100'], { env });
    expect(search.code).toBe(0);
    expect(search.stderr).toContain('eo search: 1 mirrored records could not be indexed');
    expect(search.stdout).toMatch(/odd-null-details/);
    expect(search.stdout).toMatch(/^77 /m);
  });

  it('a pass short of the total is warned about in eo sync and eo status', async () => {
    service.data = { ...service.data, catalogs: [record('c-1'), record('c-2')] };
    service.extraTotal = 3;
    try {
      const env = {
        EO_URL: service.url,
        EO_API_KEY: service.key,
        EO_DB: path.join(tmp.dir, 'b.db'),
      };
      const sync = await eo(['sync', '--resources', 'catalogs', '--format', 'table'], { env });
      expect(sync.code).toBe(0);
      expect(sync.stdout).toMatch(/catalogs +incomplete +full +2\/5/);
      const warning =
        'eo: catalogs: 2 of the 5 records the service counts were on its pages: the list changed while it was read, or the service repeated records and skipped others; nothing was removed, the next sync reads it again (incomplete)\n';
      expect(sync.stderr).toContain(warning);
      const status = await eo(['status'], { env });
      expect(status.stderr).toContain(warning);
      expect(JSON.parse(status.stdout).resources).toContainEqual(
        expect.objectContaining({ resource: 'catalogs', state: 'incomplete', incomplete: true }),
      );
    } finally {
      service.extraTotal = 0;
    }
  });
});
