/**
 * The outbox as the screens see it, held to `@eo/sync`'s outbox: the same kinds and states as
 * the contract, and `can` flags that say exactly what the real outbox accepts in each state.
 */
import {
  OUTBOX_KINDS,
  OUTBOX_STATES,
  OutboxStateError,
  openMirrorDatabase,
  openMirror,
  type OutboxEntry,
} from '@eo/sync';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutboxKind, OutboxState } from '@eo/domain';
import { OutboxEntryView } from '../../shared/contract';
import { allowedActions, makeOutboxViews, serviceMessage } from '../outbox-view';
import { taskingOrder } from './create-inputs';
import { tempDir } from './harness';

const dir = tempDir('eo-outbox-view-');
const mirror = openMirror(path.join(dir, 'mirror.sqlite'));
// A second connection puts entries and records in states no offline action reaches (test set-up).
const local = openMirrorDatabase(mirror.file);
afterAll(() => {
  local.close();
  mirror.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
// Edit, retry and cancel never reach the service.
const { outbox } = mirror;
const views = makeOutboxViews(mirror);
const job = { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' };

/** A fresh entry put in `state` after `attempts` attempts (as a flush would leave it). */
function entryIn(state: string, attempts: number): OutboxEntry {
  const e = outbox.enqueue('job', job);
  local.sqlite
    .prepare('UPDATE outbox SET state = ?, attempts = ? WHERE id = ?')
    .run(state, attempts, e.id);
  return outbox.get(e.id)!;
}

type Action = 'edit' | 'retry' | 'cancel' | 'confirm' | 'resend';

function accepts(action: Action, state: string, attempts: number): boolean {
  const e = entryIn(state, attempts);
  try {
    if (action === 'edit') outbox.edit(e.id, job);
    else if (action === 'confirm') outbox.confirm(e.id, 'job-by-hand');
    else outbox[action](e.id);
    return true;
  } catch (err) {
    if (err instanceof OutboxStateError) return false;
    throw err;
  }
}

describe('outbox views', () => {
  it('the contract names the kinds and states @eo/sync uses', () => {
    expect(OutboxKind.options).toEqual([...OUTBOX_KINDS]);
    expect(OutboxState.options).toEqual([...OUTBOX_STATES]);
  });

  it('can.edit / retry / cancel / confirm / resend say what the real outbox accepts, in every state', () => {
    for (const state of OUTBOX_STATES) {
      for (const attempts of [0, 1]) {
        if (state === 'cancelled') {
          // Cancelling twice is harmless in the outbox; the screens offer nothing there.
          expect(allowedActions({ state, attempts })).toEqual({
            edit: false,
            retry: false,
            cancel: false,
            confirm: false,
            resend: false,
          });
          continue;
        }
        const can = allowedActions({ state, attempts });
        const real = {
          edit: accepts('edit', state, attempts),
          retry: accepts('retry', state, attempts),
          cancel: accepts('cancel', state, attempts),
          confirm: accepts('confirm', state, attempts),
          resend: accepts('resend', state, attempts),
        };
        if (state === 'queued' && attempts === 0) {
          // Retrying an entry never attempted is accepted but changes nothing: not offered.
          expect(real.retry).toBe(true);
          real.retry = false;
        }
        expect({ state, attempts, ...can }).toEqual({ state, attempts, ...real });
      }
    }
  });

  it('shows µs instants as ISO strings and passes the contract schema', () => {
    const e = outbox.enqueue('job', job);
    const view = views.view(e);
    expect(OutboxEntryView.parse(view)).toEqual(view);
    expect(view.createdAt).toBe(new Date(Math.floor(e.createdAt / 1000)).toISOString());
    expect(view.nextAttemptAt).toBeNull();
    expect(view.summary).toBe('Job · wf-cloud-mask for prj-demo-crops');
  });

  it("summaries and the service's own message", () => {
    const many = views.summary({
      kind: 'order',
      input: { order_items: ['A', 'B', 'C', 'D'].map((name) => ({ name })) },
    });
    expect(many).toBe('Order · 4 items: A, B, C, …');
    expect(
      views.summary({
        kind: 'delivery',
        input: {
          deliveries: [
            { catalog_ids: ['c1', 'c2'], cloud_info: { config: 's3', path: 's3://bucket/path' } },
            { catalog_ids: ['c3'], cloud_info: { config: 's3', path: 's3://bucket/path' } },
          ],
        },
      }),
    ).toBe('Delivery · 3 catalog records to s3://bucket/path');
    // Items of a queued order by their names, not their local ids.
    const order = outbox.enqueue(
      'order',
      taskingOrder([{ name: 'North field' }, { name: 'South field' }]),
    );
    const ofItems = (refs: string[]) =>
      views.summary({
        kind: 'delivery',
        input: { deliveries: [{ order_item_ids: refs, cloud_info: { config: 's3', path: 'x' } }] },
      });
    expect(ofItems([`local:${order.id}#0`, `local:${order.id}#1`])).toBe(
      'Delivery · 2 order items (“North field”, “South field”) to x',
    );
    expect(ofItems([`local:${order.id}#1`])).toBe('Delivery · order item “South field” to x');
    // A mirrored item's id says nothing a person reads: counted.
    expect(ofItems(['oi_1', `local:${order.id}#0`])).toBe('Delivery · 2 order items to x');
    expect(
      views.summary({
        kind: 'visualization',
        input: { aoi_id: 'aoi-1', index_id: 'idx-ndvi-aurora', src_asset_ids: ['a'] },
      }),
    ).toBe('Visualization · idx-ndvi-aurora on AOI aoi-1');
    // Mirrored ones are named as the screens name them.
    local.sqlite
      .prepare(
        "INSERT INTO mirror_indices (id, name, type, satellite_id, pass_id, json) VALUES ('idx-ndvi-aurora', 'NDVI', 'preset', 'sat-aurora-1', 'p', '{}')",
      )
      .run();
    expect(
      views.summary({
        kind: 'visualization',
        input: { aoi_id: 'aoi-1', index_id: 'idx-ndvi-aurora', src_asset_ids: ['a'] },
      }),
    ).toBe('Visualization · NDVI on AOI aoi-1');
    expect(
      serviceMessage({
        message:
          'POST /v0/orders failed with 400 validation_failed: order_items.0.item_ids.0: no such scene',
      }),
    ).toBe('order_items.0.item_ids.0: no such scene');
    expect(serviceMessage({ message: 'connect ECONNREFUSED 127.0.0.1:9' })).toBe(
      'connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it("a failed entry's error is the service's own words; status, code and details beside them", () => {
    const e = entryIn('failed', 1);
    const stored = {
      kind: 'api',
      status: 400,
      code: 'validation_failed',
      message:
        'POST /v0/workflows/wf-cloud-mask/jobs failed with 400 validation_failed: project_id: unknown project',
      details: [{ path: 'project_id', message: 'unknown project' }],
    };
    local.sqlite
      .prepare('UPDATE outbox SET last_error = ? WHERE id = ?')
      .run(JSON.stringify(stored), e.id);
    const view = views.view(outbox.get(e.id)!);
    expect(view.lastError).toEqual({ ...stored, message: 'project_id: unknown project' });
  });
});
