/**
 * `outbox.enqueueAll` through the backend's dispatch, on a real mirror file (no service
 * needed: queueing is offline): every create queued in one call, or none, with the paths of
 * the one refused by the outbox (a reference the contract cannot check).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { aoiInput, CROPS } from './create-inputs';
import { startBackend, type TestBackend } from './harness';

let t: TestBackend | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const box = (x: number) => [x, 44.4, x + 0.05, 44.45] as const;

describe('outbox.enqueueAll', () => {
  it('queues every AOI in one call, one outbox.changed', async () => {
    t = startBackend();
    const entries = await t.call('outbox.enqueueAll', {
      creates: ['Wiese', 'Acker', 'Weinberg'].map((name, k) => ({
        kind: 'aoi' as const,
        input: aoiInput(name, 'AUR1_20240101T000000_L2A_R001_F0001', box(11 + k), CROPS),
      })),
    });
    expect(entries.map((e) => e.summary)).toEqual(['AOI · Wiese', 'AOI · Acker', 'AOI · Weinberg']);
    expect((await t.call('outbox.list')).counts.queued).toBe(3);
    expect(t.events.filter((e) => e.event === 'outbox.changed').map((e) => e.payload)).toEqual([
      { pending: 3 },
    ]);
  });

  it('one refused by the outbox: none queued, its path under creates.N.input', async () => {
    t = startBackend();
    const r = await t.raw('outbox.enqueueAll', {
      creates: [
        { kind: 'aoi', input: aoiInput('Wiese', 'AUR1_20240101T000000_L2A_R001_F0001', box(11)) },
        {
          kind: 'visualization',
          input: {
            aoi_id: 'local:nope',
            index_id: 'idx-ndvi-aurora',
            src_asset_ids: ['local:nope#scenes'],
          },
        },
      ],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_argument');
    expect(r.error.message).toMatch(/^Nothing queued: creates\.1\.input\.aoi_id: /);
    expect(r.error.details?.issues?.map((i) => i.path)).toEqual([
      'creates.1.input.aoi_id',
      'creates.1.input.src_asset_ids.0',
    ]);
    expect((await t.call('outbox.list')).entries).toEqual([]);
    expect(t.events.some((e) => e.event === 'outbox.changed')).toBe(false);
  });
});
