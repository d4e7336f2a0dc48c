/**
 * An order mixing Aurora and Kestrel scenes in one archive item is refused when queued, and the
 * refusal carries the split the form can apply (issue 17, item 2): through the backend's
 * dispatch, with the mirror synced from the real reference service on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, startService, type TestBackend, type TestService } from './harness';

let service: TestService;
let t: TestBackend;

interface SceneRecord {
  details: { id: string; bbox: number[]; properties: { platform: string } };
}

/** A catalog record of the demo org on `platform`, from the service's own table. */
function recordOn(platform: string): SceneRecord {
  const rows = service.server.app.ctx.sqlite
    .prepare('SELECT record_json FROM catalog_records')
    .pluck()
    .all() as string[];
  const records = rows.map((j) => JSON.parse(j) as SceneRecord);
  return records.find((r) => r.details.properties.platform === platform)!;
}

function square(r: SceneRecord) {
  const [w, s, e, n] = r.details.bbox as [number, number, number, number];
  const [cx, cy, dx, dy] = [(w + e) / 2, (s + n) / 2, (e - w) / 10, (n - s) / 10];
  const ring = [
    [cx - dx, cy - dy],
    [cx + dx, cy - dy],
    [cx + dx, cy + dy],
    [cx - dx, cy + dy],
    [cx - dx, cy - dy],
  ];
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] } };
}

beforeAll(async () => {
  service = await startService(600);
  t = startBackend();
  const online = t.waitFor(
    'connectivity.changed',
    (p) => (p as { state: string }).state === 'online',
  );
  await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
  await online;
  const done = t.waitFor('sync.finished');
  await t.call('sync.run', {});
  await done;
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

describe('queuing an archive item of two satellites', () => {
  it('is refused with the split one item per satellite in the issue', async () => {
    const [aurora, kestrel] = [recordOn('aurora-1'), recordOn('kestrel-1')];
    const input = {
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Select all',
          geometry: { type: 'FeatureCollection', features: [square(aurora), square(kestrel)] },
          item_ids: [aurora.details.id, kestrel.details.id],
        },
      ],
    };
    const r = await t.raw('outbox.enqueue', { kind: 'order', input });
    if (r.ok) throw new Error('queued');
    expect(r.error.code).toBe('invalid_argument');
    const issue = r.error.details!.issues!.find(
      (i) => i.path === 'input.order_items.0.item_ids.1',
    )!;
    expect(issue.message).toContain('share no bandset');
    expect(issue.fix!.order_items).toMatchObject([
      { name: 'Select all (aurora-1)', item_ids: [aurora.details.id] },
      { name: 'Select all (kestrel-1)', item_ids: [kestrel.details.id] },
    ]);
    expect((await t.call('outbox.list')).entries).toEqual([]);
  });
});
