/**
 * Overlapping loads (a screen opening while `records.changed` reloads it): answers that arrive
 * out of order must not put an older list back on screen.
 */
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Bridge } from '../../../shared/contract';
import { createMemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../bridge-provider';
import { useDeliveriesStore } from '../../features/deliveries/deliveries-store';
import { useIndicesStore } from '../../features/indices/indices-store';
import { useJobsStore } from '../../features/jobs/jobs-store';
import { useLookupsStore } from '../lookups';

/** A bridge whose answers to `method` wait until the test releases them, in any order. */
function heldBridge(method: string) {
  const memory = createMemoryBridge();
  const held: Array<{ release(value: unknown): void }> = [];
  const bridge: Bridge = {
    ...memory,
    on: memory.on.bind(memory),
    call: ((m: string, input?: unknown) => {
      if (m !== method)
        return (memory.call as (m: string, i?: unknown) => Promise<unknown>)(m, input);
      return new Promise((resolve) => held.push({ release: resolve }));
    }) as Bridge['call'],
  };
  return { bridge, held };
}

beforeEach(() => setActivePinia(createPinia()));

describe('only the latest load is shown', () => {
  it('jobs, lookups, indices and deliveries keep the newer answer', async () => {
    const cases = [
      {
        method: 'jobs.list',
        load: () => useJobsStore().load(),
        shown: () => useJobsStore().jobs,
      },
      {
        method: 'lookups.get',
        load: () => useLookupsStore().load(),
        shown: () => useLookupsStore().lookups,
      },
      {
        method: 'indices.list',
        load: () => useIndicesStore().load(),
        shown: () => useIndicesStore().indices,
      },
      {
        method: 'deliveries.list',
        load: () => useDeliveriesStore().load(),
        shown: () => useDeliveriesStore().deliveries,
      },
    ];
    for (const c of cases) {
      setActivePinia(createPinia());
      const { bridge, held } = heldBridge(c.method);
      provideBridge(bridge);
      const older = c.load();
      const newer = c.load();
      expect(held).toHaveLength(2);
      held[1]!.release(['newer']);
      await newer;
      held[0]!.release(['older']);
      await older;
      expect(c.shown(), c.method).toEqual(['newer']);
    }
  });
});
