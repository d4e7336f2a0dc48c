import { CreateAoiRequest, type Polygon } from '@eo/domain';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { useAoiFormStore } from '../aoi-form-store';
import { provideBridge } from '../../../stores/bridge-provider';
import { useOutboxStore } from '../../../stores/outbox-store';
import { useBasketStore } from '../../../stores/basket-store';

let bridge: MemoryBridge;
const square: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [5, 45],
      [5.1, 45],
      [5.1, 45.1],
      [5, 45.1],
      [5, 45],
    ],
  ],
};

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 6 });
  provideBridge(bridge);
});

function fill() {
  const f = useAoiFormStore();
  f.set('name', 'Vineyard block 4');
  f.set('description', 'Rows along the river');
  f.set('satelliteId', 'aurora-1');
  f.set('provider', 'esa');
  f.set('projectId', 'proj-7');
  f.setGeometry(square, 'Drawn on the map');
  f.set('itemIds', 'AUR_1\nAUR_2');
  return f;
}

describe('useAoiFormStore', () => {
  it('validates with CreateAoiRequest as the user types', () => {
    const f = useAoiFormStore();
    expect(f.errors).toEqual({});
    f.set('name', ' ');
    f.set('itemIds', '');
    expect(f.errors).toEqual({
      name: 'Enter a name',
      item_ids: 'Add at least one archive scene (one id per line, or from the basket)',
    });
    f.set('name', 'Block');
    expect(f.errors.name).toBeUndefined();
  });

  it('queues exactly the domain request and says so', async () => {
    const f = fill();
    await f.submit();
    const sent = bridge.calls.find((c) => c.method === 'outbox.enqueue')?.input;
    expect(sent).toEqual({
      kind: 'aoi',
      input: CreateAoiRequest.parse({
        name: 'Vineyard block 4',
        description: 'Rows along the river',
        satellite_id: 'aurora-1',
        provider: 'esa',
        project_id: 'proj-7',
        geometry: square,
        item_ids: ['AUR_1', 'AUR_2'],
      }),
    });
    expect(f.flow.done).toBe(
      'AOI "Vineyard block 4" is queued and will be submitted from the Outbox.',
    );
    expect(f.draft.name).toBe('');
    expect(useOutboxStore().unsent('aoi')).toHaveLength(1);
  });

  it('refuses while errors stand, and shows backend issues on the fields', async () => {
    const f = useAoiFormStore();
    f.set('name', 'x');
    expect(await f.submit()).toBeNull();
    expect(f.errors.geometry).toBe('Draw the area on the map or import a file');
    expect(f.errors.provider).toBe('Enter the provider');

    fill();
    bridge.failWith(
      'outbox.enqueue',
      new ContractError('invalid_argument', 'bad', {
        issues: [{ path: 'input.satellite_id', message: 'Unknown satellite' }],
      }),
    );
    expect(await f.submit()).toBeNull();
    expect(f.errors.satellite_id).toBe('Unknown satellite');
    expect(f.draft.name).toBe('Vineyard block 4');
  });

  it("shows a scene of another satellite on the scenes field, nothing queued (the outbox's check)", async () => {
    const f = fill();
    f.set('satelliteId', 'sat-kestrel-1');
    f.set('itemIds', 'KES1_20240510T103000_001\nAUR1_20240510T103000_001');
    // The refusal as the backend words the outbox's satellite check (satellite-checks.ts).
    const message =
      'scene "AUR1_20240510T103000_001" was taken by sat-aurora-1, not sat-kestrel-1: choose scenes of sat-kestrel-1, or the satellite sat-aurora-1';
    bridge.failWith(
      'outbox.enqueue',
      new ContractError('invalid_argument', `Not queued: input.item_ids.1: ${message}`, {
        issues: [{ path: 'input.item_ids.1', message }],
      }),
    );
    expect(await f.submit()).toBeNull();
    expect(f.errors.item_ids).toContain('AUR1_20240510T103000_001');
    expect(f.errors.item_ids).toContain('choose scenes of sat-kestrel-1');
    expect(useOutboxStore().counts?.queued ?? 0).toBe(0);
    expect(f.draft.itemIds).toContain('AUR1_20240510T103000_001');
  });

  it('adds the scene ids of the catalog selection, without duplicates', async () => {
    const f = useAoiFormStore();
    f.set('itemIds', bridge.records[0]!.details.id);
    await f.useCatalogRecords(bridge.records.slice(0, 2).map((r) => r.id));
    expect(f.draft.itemIds.split('\n')).toEqual([
      bridge.records[0]!.details.id,
      bridge.records[1]!.details.id,
    ]);
  });

  it("uses the basket's archive scenes by their scene id, never as records the mirror lost", async () => {
    const record = bridge.records[0]!;
    useBasketStore().entries = [
      {
        id: record.id,
        sceneId: record.details.id,
        collection: null,
        datetime: null,
        platform: null,
        inMirror: true,
        addedAt: '2024-05-10T10:00:00.000Z',
      },
      {
        id: 'AUR1_20240510T103000_001',
        sceneId: 'AUR1_20240510T103000_001',
        collection: null,
        datetime: '2024-05-10T10:30:00.000Z',
        platform: 'sat-aurora-1',
        inMirror: false,
        addedAt: '2024-05-10T10:01:00.000Z',
        archive: { footprint: [11, 44, 12, 44, 12, 45, 11, 45] },
      },
    ];
    const f = useAoiFormStore();
    await f.useCatalogRecords(useBasketStore().ids);
    expect(f.draft.itemIds.split('\n')).toEqual([record.details.id, 'AUR1_20240510T103000_001']);
    expect(f.geometryNote).toBeNull();
    const reads = bridge.calls.filter((c) => c.method === 'catalog.get').map((c) => c.input);
    expect(reads).toEqual([{ id: record.id }]);
  });

  it('edits a queued AOI with outbox.edit', async () => {
    const f = fill();
    const entry = await f.submit();
    const outbox = useOutboxStore();
    outbox.startEdit(entry!);
    f.edit(outbox.editing!);
    expect(f.draft.name).toBe('Vineyard block 4');
    expect(f.draft.itemIds).toBe('AUR_1\nAUR_2');
    f.set('name', 'Vineyard block 5');
    await f.submit();
    const edit = bridge.calls.find((c) => c.method === 'outbox.edit')?.input as {
      id: string;
      input: Record<string, unknown>;
    };
    expect(edit.id).toBe(entry!.id);
    expect(edit.input['name']).toBe('Vineyard block 5');
    expect(outbox.editing).toBeNull();
    expect(bridge.work.outbox[0]!.summary).toBe('AOI · Vineyard block 5');
  });
});
