/** Deliveries and jobs this client created: kept, refreshed by id, listed newest first. */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeCreatedRecords } from '../created';

const tmp = tempDir('created');
const db = openLocalDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});

describe('created records', () => {
  const created = makeCreatedRecords(db.sqlite, () => 1);

  it('deliveries: refreshed by delivery_id, newest first', () => {
    created.putDelivery({
      delivery_id: 'd1',
      status: 'PENDING',
      created_at: '2024-05-01T10:00:00.000000Z',
    });
    created.putDelivery({
      delivery_id: 'd2',
      status: 'PENDING',
      created_at: '2024-05-02T10:00:00.000000Z',
    });
    created.putDelivery({
      delivery_id: 'd1',
      status: 'DELIVERED',
      created_at: '2024-05-01T10:00:00.000000Z',
    });
    expect(created.deliveries()).toEqual([
      { delivery_id: 'd2', status: 'PENDING', created_at: '2024-05-02T10:00:00.000000Z' },
      { delivery_id: 'd1', status: 'DELIVERED', created_at: '2024-05-01T10:00:00.000000Z' },
    ]);
  });

  it('jobs: keyed by id; a record without a creation time sorts by when it was recorded', () => {
    created.putJob({ id: 'j1', status: 'RUNNING', created_at: '2024-05-03 08:00:00.000000+00:00' });
    created.putJob({ id: 'j0', status: 'QUEUED' });
    expect(created.jobs().map((j) => j.id)).toEqual(['j1', 'j0']);
    expect(() => created.putJob({ status: 'QUEUED' })).toThrow(/job without an id/);
  });
});
