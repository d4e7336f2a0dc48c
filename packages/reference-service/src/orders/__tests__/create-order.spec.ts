import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER, type TestApp } from '../../testing/harness';
import {
  FIELD,
  PROJECT,
  SCENES,
  archiveItem,
  featureCollection,
  recurringItem,
  taskingItem,
} from './fixtures';
import { count, createOrder, createOrdersApp, type Json } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createOrdersApp();
});
afterAll(async () => t.close());

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** Geodesic area of FIELD (0.125° × 0.1° at 44.5° N), km². */
const FIELD_KM2 = 110.3;

describe('POST /v0/orders: tasking', () => {
  it('creates an UNPAID order with a priced, checked DRAFT item (201)', async () => {
    const res = await createOrder(t, [taskingItem({ usecase: 'agriculture' })]);
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order).toMatchObject({
      status: 'UNPAID',
      org_id: 'org-demo',
      user_id: 'usr-demo-analyst',
      created_by: 'usr-demo-analyst',
      paid_at: null,
      transaction_id: null,
    });
    expect(order.id).toMatch(/^ord_/);
    expect(order.created_at).toMatch(ISO_Z);
    const [item] = order.order_items;
    expect(item).toMatchObject({
      order_id: order.id,
      org_id: 'org-demo',
      project_id: PROJECT,
      type: 'TASKING',
      status: 'DRAFT',
      payment_status: 'UNPAID',
      feasibility_status: 'SUCCESS',
      delivery_speed: 'STANDARD',
      recurrence: 'ONCE',
      usecase: 'agriculture',
      image_type: 'MULTISPECTRAL',
      number_of_bands: 4,
      cloud_cover: 20,
      off_nadir: 30,
      no_of_occurrences: 1,
      start_date: '2030-06-01T00:00:00.000000Z',
      end_date: '2030-06-30T00:00:00.000000Z',
      occurrences: [
        { start: '2030-06-01T00:00:00.000000+00:00', end: '2030-06-30T00:00:00.000000+00:00' },
      ],
      images: [],
      uplifts: [],
      validation_errors: [],
      geometry: featureCollection(FIELD),
    });
    expect(item.bandset).toEqual({
      bandset_id: 'bs-aurora-rgbn',
      bands: [
        { name: 'B02', wavelength: 490 },
        { name: 'B03', wavelength: 560 },
        { name: 'B04', wavelength: 665 },
        { name: 'B08', wavelength: 842 },
      ],
      custom: [],
    });
    expect(item.area).toBeGreaterThan(FIELD_KM2 * 0.99);
    expect(item.area).toBeLessThan(FIELD_KM2 * 1.01);
    expect(item.base_amount).toBeCloseTo(item.area * 8, 1);
    expect(item.final_amount).toBe(item.base_amount);
    expect(item.tokens_used).toBe(Math.ceil(item.final_amount));
    expect(order.total_amount).toBe(item.final_amount);
    expect(item.last_feasibility_check).toBe(order.created_at);
    expect(item).not.toHaveProperty('tasks');
  });

  it('prices uplifts for delivery speed, strict cloud cover and low off-nadir', async () => {
    const res = await createOrder(t, [
      taskingItem({ delivery_speed: 'EXPRESS', cloud_cover: 10, off_nadir: 15 }),
      taskingItem({ delivery_speed: 'PRIORITY' }),
    ]);
    expect(res.statusCode).toBe(201);
    const [express, priority] = res.json().order_items as Json[];
    expect(express.uplifts.map((u: Json) => [u.item_id, u.percentage])).toEqual([
      ['uplift-delivery-express', 50],
      ['uplift-strict-cloud-cover', 20],
      ['uplift-low-off-nadir', 15],
    ]);
    for (const u of express.uplifts) {
      expect(u.amount).toBeCloseTo((express.base_amount * u.percentage) / 100, 2);
      expect(typeof u.title).toBe('string');
      expect(typeof u.subtitle).toBe('string');
    }
    expect(express.final_amount).toBeCloseTo(express.base_amount * 1.85, 1);
    expect(priority.uplifts).toEqual([
      expect.objectContaining({ item_id: 'uplift-delivery-priority', percentage: 25 }),
    ]);
    expect(res.json().total_amount).toBeCloseTo(express.final_amount + priority.final_amount, 2);
  });

  it('bills the minimum area for tiny geometries, and says so', async () => {
    const res = await createOrder(t, [
      taskingItem({ geometry: featureCollection([11.3, 44.5, 11.31, 44.51]) }),
    ]);
    const [tiny] = res.json().order_items as Json[];
    expect(tiny.area).toBeLessThan(1);
    expect(tiny.base_amount).toBe(25 * 8);
    expect(tiny.validation_errors).toEqual([
      expect.objectContaining({ code: 'BELOW_MINIMUM_AREA', field: 'geometry' }),
    ]);
  });

  it('refuses points and lines: every item needs an area (they were priced at the minimum)', async () => {
    for (const geometry of [
      { type: 'Point', coordinates: [11.3, 44.5] },
      {
        type: 'LineString',
        coordinates: [
          [11.3, 44.5],
          [11.4, 44.5],
        ],
      },
    ]) {
      const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry }] };
      for (const item of [taskingItem({ geometry: fc }), archiveItem({ geometry: fc })]) {
        const res = await createOrder(t, [item]);
        expect(res.statusCode, geometry.type).toBe(400);
        expect(res.json().error.details.map((d: Json) => d.path)).toEqual([
          'order_items.0.geometry.features.0.geometry.type',
        ]);
      }
    }
  });

  it('uses the bandset, satellite and image type asked for', async () => {
    const res = await createOrder(t, [taskingItem({ bandset: { bandset_id: 'bs-kestrel-pan' } })]);
    const [item] = res.json().order_items;
    expect(item).toMatchObject({
      bandset: { bandset_id: 'bs-kestrel-pan', bands: [{ name: 'PAN', wavelength: 625 }] },
      number_of_bands: 1,
      image_type: 'VNIR',
      satellite_id: 'sat-kestrel-1',
    });
    expect(item.uplifts.map((u: Json) => u.item_id)).toEqual(['uplift-very-high-resolution']);
  });
});

describe('POST /v0/orders: feasibility and validation_errors', () => {
  it('rates a short window WEAK_SUCCESS and a hopeless one FAILED, with reasons', async () => {
    const res = await createOrder(t, [
      taskingItem({ start_date: '2030-06-01T00:00:00Z', end_date: '2030-06-04T00:00:00Z' }),
      taskingItem({
        start_date: '2030-06-01T00:00:00Z',
        end_date: '2030-06-02T00:00:00Z',
        cloud_cover: 10,
        off_nadir: 10,
      }),
      taskingItem({ off_nadir: 50 }),
    ]);
    expect(res.statusCode).toBe(201);
    const [weak, failed, highNadir] = res.json().order_items as Json[];
    expect(weak.feasibility_status).toBe('WEAK_SUCCESS');
    expect(weak.validation_errors.map((e: Json) => e.code)).toEqual(['WEAK_FEASIBILITY']);
    expect(failed.feasibility_status).toBe('FAILED');
    expect(failed.validation_errors.map((e: Json) => [e.code, e.field])).toEqual([
      ['SHORT_WINDOW', 'end_date'],
      ['INFEASIBLE', 'feasibility_status'],
    ]);
    expect(highNadir.feasibility_status).toBe('SUCCESS');
    expect(highNadir.validation_errors).toEqual([
      { code: 'HIGH_OFF_NADIR', field: 'off_nadir', message: expect.stringContaining('45') },
    ]);
  });

  it('fails a window that is already over and notes a window that started', async () => {
    const res = await createOrder(t, [
      taskingItem({ start_date: '2020-06-01T00:00:00Z', end_date: '2020-06-30T00:00:00Z' }),
      taskingItem({ start_date: '2029-12-01T00:00:00Z', end_date: '2030-02-01T00:00:00Z' }),
    ]);
    const [over, started] = res.json().order_items as Json[];
    expect(over.feasibility_status).toBe('FAILED');
    expect(over.validation_errors.map((e: Json) => e.code)).toContain('WINDOW_IN_PAST');
    expect(started.feasibility_status).toBe('SUCCESS');
    expect(started.validation_errors.map((e: Json) => e.code)).toEqual(['WINDOW_STARTS_IN_PAST']);
  });

  it('rejects no_of_occurrences > 1 on a ONCE (tasking) item with its path', async () => {
    const res = await createOrder(t, [taskingItem({ no_of_occurrences: 3 })]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: Json) => d.path)).toContain(
      'order_items.0.no_of_occurrences',
    );
  });
});

describe('POST /v0/orders: recurring', () => {
  it('prices per occurrence and lists the occurrence windows', async () => {
    const res = await createOrder(t, [recurringItem({ cloud_cover: 40 })]);
    expect(res.statusCode).toBe(201);
    const [item] = res.json().order_items;
    expect(item).toMatchObject({ type: 'RECURRING', recurrence: 'WEEKLY', no_of_occurrences: 3 });
    expect(item.occurrences).toEqual([
      { start: '2030-06-01T00:00:00.000000+00:00', end: '2030-06-08T00:00:00.000000+00:00' },
      { start: '2030-06-08T00:00:00.000000+00:00', end: '2030-06-15T00:00:00.000000+00:00' },
      { start: '2030-06-15T00:00:00.000000+00:00', end: '2030-06-22T00:00:00.000000+00:00' },
    ]);
    expect(item.base_amount).toBeCloseTo(item.area * 8 * 3, 1);
    expect(item.feasibility_status).toBe('SUCCESS');
    expect(item.validation_errors.map((e: Json) => e.code)).toEqual([
      'OCCURRENCES_END_BEFORE_END_DATE',
    ]);
  });

  it('clips monthly windows to the month length and the last one to end_date', async () => {
    const res = await createOrder(t, [
      recurringItem({
        recurrence: 'MONTHLY',
        start_date: '2030-01-31T00:00:00Z',
        end_date: '2030-03-15T00:00:00Z',
        no_of_occurrences: 2,
      }),
      recurringItem({
        recurrence: 'DAILY',
        start_date: '2030-06-01T00:00:00Z',
        end_date: '2030-06-02T12:00:00Z',
        no_of_occurrences: 2,
      }),
    ]);
    const [monthly, daily] = res.json().order_items as Json[];
    expect(monthly.occurrences.map((o: Json) => o.start.slice(0, 10))).toEqual([
      '2030-01-31',
      '2030-02-28',
    ]);
    expect(monthly.occurrences[1].end).toBe('2030-03-15T00:00:00.000000+00:00');
    expect(daily.occurrences[1]).toEqual({
      start: '2030-06-02T00:00:00.000000+00:00',
      end: '2030-06-02T12:00:00.000000+00:00',
    });
    // one-day windows at 20% cloud: 0.2 expected acquisitions each
    expect(daily.feasibility_status).toBe('FAILED');
  });

  it('rejects more occurrences than fit in the period (400 with the path)', async () => {
    const res = await createOrder(t, [recurringItem({ no_of_occurrences: 6 })]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      expect.objectContaining({
        path: 'order_items.0.no_of_occurrences',
        message: expect.stringContaining('only 5 weekly'),
      }),
    ]);
  });
});

describe('POST /v0/orders: archive', () => {
  it('prices the area at the archive rate and lists the scenes as images', async () => {
    const res = await createOrder(t, [archiveItem()]);
    expect(res.statusCode).toBe(201);
    const [item] = res.json().order_items;
    expect(item).toMatchObject({
      type: 'ARCHIVE',
      feasibility_status: 'SUCCESS',
      recurrence: 'ONCE',
      occurrences: null,
      cloud_cover: null,
      off_nadir: null,
      bandset: { bandset_id: 'bs-aurora-rgbn' },
      image_type: 'MULTISPECTRAL',
      validation_errors: [],
      images: [{ item_id: SCENES.wide.id, geometry: { type: 'Polygon' } }],
    });
    expect(item.images[0].geometry.coordinates[0]).toContainEqual([11.6, 44.7]);
    expect(item.base_amount).toBeCloseTo(item.area * 2.5, 1);
    expect(item.uplifts).toEqual([]);
  });

  it('reports partial coverage, scenes off the geometry and cloudy scenes without rejecting', async () => {
    const res = await createOrder(t, [
      archiveItem({ item_ids: [SCENES.west.id, SCENES.far.id], cloud_cover: 20 }),
    ]);
    expect(res.statusCode).toBe(201);
    const [item] = res.json().order_items;
    expect(item.validation_errors.map((e: Json) => [e.code, e.field])).toEqual([
      ['SCENE_CLOUD_COVER_ABOVE_LIMIT', 'item_ids.0'],
      ['SCENE_OUTSIDE_GEOMETRY', 'item_ids.1'],
      ['GEOMETRY_NOT_COVERED', 'geometry'],
    ]);
    expect(item.images.map((i: Json) => i.item_id)).toEqual([SCENES.west.id, SCENES.far.id]);
  });

  it('takes bandset and image type from the scenes satellite', async () => {
    const res = await createOrder(t, [
      archiveItem({ item_ids: [SCENES.kestrel.id], off_nadir: 20 }),
    ]);
    const [item] = res.json().order_items;
    expect(item).toMatchObject({ bandset: { bandset_id: 'bs-kestrel-pan' }, image_type: 'VNIR' });
    expect(item.validation_errors.map((e: Json) => e.code)).toEqual([
      'SCENE_OFF_NADIR_ABOVE_LIMIT',
    ]);
  });
});

describe('POST /v0/orders: rejected requests', () => {
  const details = (res: { json(): Json }) =>
    (res.json().error.details as Json[]).map((d) => d.path).sort();

  it('rejects projects of another organisation and unknown ones', async () => {
    const res = await createOrder(t, [
      taskingItem(),
      taskingItem({ project_id: OTHER.projectId }),
      taskingItem({ project_id: 'prj-nope' }),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(details(res)).toEqual(['order_items.1.project_id', 'order_items.2.project_id']);
  });

  it('rejects unknown and duplicate archive ids with their index', async () => {
    const res = await createOrder(t, [
      archiveItem(),
      archiveItem({ item_ids: [SCENES.wide.id, 'scn-missing', SCENES.wide.id] }),
    ]);
    expect(res.statusCode).toBe(400);
    expect(details(res)).toEqual(['order_items.1.item_ids.1', 'order_items.1.item_ids.2']);
    expect(res.json().error.message).toContain('scn-missing');
  });

  it('rejects unknown bandsets and bandsets the scenes lack', async () => {
    const res = await createOrder(t, [
      taskingItem({ bandset: { bandset_id: 'bs-nope' } }),
      archiveItem({ item_ids: [SCENES.kestrel.id], bandset: { bandset_id: 'bs-aurora-rgbn' } }),
      archiveItem({ item_ids: [SCENES.wide.id, SCENES.kestrel.id] }),
    ]);
    expect(res.statusCode).toBe(400);
    expect(details(res)).toEqual([
      'order_items.0.bandset.bandset_id',
      'order_items.1.bandset.bandset_id',
      'order_items.2.item_ids.1',
    ]);
  });

  it('rejects what the domain schema rejects, with field paths', async () => {
    const missing = await createOrder(t, [
      { project_id: PROJECT, geometry: featureCollection(FIELD) },
    ]);
    expect(missing.statusCode).toBe(400);
    expect(details(missing)).toEqual(['order_items.0.name']);
    const noDates = await createOrder(t, [taskingItem({ start_date: undefined })]);
    expect(details(noDates)).toEqual(['order_items.0.start_date']);
    const empty = await createOrder(t, []);
    expect(details(empty)).toEqual(['order_items']);
    const bad = await t.call({
      method: 'POST',
      url: '/v0/orders',
      payload: { order_items: [taskingItem()], extra: 1 },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('writes nothing for a rejected order', async () => {
    const before = count(t, 'orders');
    await createOrder(t, [taskingItem(), taskingItem({ project_id: 'prj-nope' })]);
    expect(count(t, 'orders')).toBe(before);
  });

  it('401s without a valid key', async () => {
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/v0/orders',
          key: null,
          payload: { order_items: [taskingItem()] },
        })
      ).statusCode,
    ).toBe(401);
    expect((await createOrder(t, [taskingItem()], { key: 'eok_wrong' })).statusCode).toBe(401);
  });
});

describe('POST /v0/orders: dry run and idempotency', () => {
  it('answers a dry run with the would-be order (200) and writes nothing', async () => {
    const before = {
      orders: count(t, 'orders'),
      items: count(t, 'order_items'),
      work: count(t, 'work_items'),
      keys: count(t, 'idempotency_keys'),
    };
    const res = await createOrder(t, [taskingItem(), archiveItem()], {
      dryRun: true,
      headers: { 'idempotency-key': 'dry-1' },
    });
    expect(res.statusCode).toBe(200);
    const order = res.json();
    expect(order.status).toBe('UNPAID');
    expect(order.order_items.map((i: Json) => i.type)).toEqual(['TASKING', 'ARCHIVE']);
    expect(order.total_amount).toBeGreaterThan(0);
    expect({
      orders: count(t, 'orders'),
      items: count(t, 'order_items'),
      work: count(t, 'work_items'),
      keys: count(t, 'idempotency_keys'),
    }).toEqual(before);
    // The key was not used up: the real request with it creates the order.
    const real = await createOrder(t, [taskingItem(), archiveItem()], {
      dryRun: false,
      headers: { 'idempotency-key': 'dry-1' },
    });
    expect(real.statusCode).toBe(201);
    expect(real.json().total_amount).toBe(order.total_amount);
    expect(count(t, 'orders')).toBe(before.orders + 1);
  });

  it('rejects a dry run with the same errors as the real request', async () => {
    const res = await createOrder(t, [taskingItem({ project_id: 'prj-nope' })], { dryRun: true });
    expect(res.statusCode).toBe(400);
  });

  it('replays a create with the same Idempotency-Key and refuses a different body', async () => {
    const headers = { 'idempotency-key': 'order-replay-1' };
    const first = await createOrder(t, [archiveItem()], { headers });
    const again = await createOrder(t, [archiveItem()], { headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(count(t, 'orders', 'id = ?', first.json().id)).toBe(1);
    expect(count(t, 'work_items', 'ref_id = ?', first.json().id)).toBe(1);
    const other = await createOrder(t, [taskingItem()], { headers });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_conflict');
  });

  it('keeps Idempotency-Keys per organisation', async () => {
    const headers = { 'idempotency-key': 'shared-key' };
    const mine = await createOrder(t, [archiveItem()], { headers });
    const theirs = await createOrder(t, [archiveItem({ project_id: OTHER.projectId })], {
      headers,
      key: t.otherKey,
    });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(theirs.json().org_id).toBe(OTHER.orgId);
  });
});
