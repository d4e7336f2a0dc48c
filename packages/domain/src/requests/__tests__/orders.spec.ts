import { describe, expect, it } from 'vitest';
import { CreateOrderRequest, LIMITS, OrderItemInput, orderItemTypeOf } from '../../index';
import { expectIssueAt, issuesOf, parseOk } from '../../__tests__/support';
import {
  buildArchiveOrderItemInput,
  buildCreateOrderRequest,
  buildRecurringOrderItemInput,
  buildTaskingOrderItemInput,
} from '../../testing';

type Item = Record<string, unknown>;
const order = (...items: Item[]) => ({ order_items: items });
const without = (item: Item, key: string): Item => {
  const copy = { ...item };
  delete copy[key];
  return copy;
};

describe('orderItemTypeOf', () => {
  it.each([
    [{}, 'TASKING'],
    [{ recurrence: 'ONCE' }, 'TASKING'],
    [{ recurrence: 'WEEKLY' }, 'RECURRING'],
    [{ recurrence: 'DAILY' }, 'RECURRING'],
    [{ item_ids: ['a'] }, 'ARCHIVE'],
    [{ item_ids: [] }, 'ARCHIVE'],
    [{ item_ids: ['a'], recurrence: 'MONTHLY' }, 'ARCHIVE'],
  ] as const)('%j -> %s', (input, type) => {
    expect(orderItemTypeOf(input)).toBe(type);
  });
});

describe('create order request', () => {
  it('dry_run defaults to false and is a boolean', () => {
    expect(parseOk(CreateOrderRequest, buildCreateOrderRequest.minimal()).dry_run).toBe(false);
    expect(
      parseOk(CreateOrderRequest, { ...buildCreateOrderRequest(), dry_run: true }).dry_run,
    ).toBe(true);
    expectIssueAt(CreateOrderRequest, { ...buildCreateOrderRequest(), dry_run: 'true' }, [
      'dry_run',
    ]);
  });

  it('needs 1..maxOrderItems items', () => {
    expectIssueAt(
      CreateOrderRequest,
      { order_items: [] },
      ['order_items'],
      'an order needs at least one order item',
    );
    expectIssueAt(CreateOrderRequest, {}, ['order_items']);
    const many = Array.from({ length: LIMITS.maxOrderItems + 1 }, () =>
      buildTaskingOrderItemInput.minimal(),
    );
    expectIssueAt(
      CreateOrderRequest,
      { order_items: many },
      ['order_items'],
      `at most ${LIMITS.maxOrderItems}`,
    );
  });

  it('rejects unknown fields at both levels, naming them', () => {
    const top = expectIssueAt(
      CreateOrderRequest,
      { ...buildCreateOrderRequest(), priority: 1 },
      [],
    );
    expect(top.message).toContain('priority');
    // `type` is derived, never an input.
    const inItem = expectIssueAt(
      CreateOrderRequest,
      order({ ...buildTaskingOrderItemInput(), type: 'TASKING' }),
      ['order_items', 0],
    );
    expect(inItem.code).toBe('unrecognized_keys');
    expect(inItem.message).toContain('type');
  });
});

describe('order item: fields required for every type', () => {
  it.each(['project_id', 'name', 'geometry'])('%s', (key) => {
    for (const item of [
      buildTaskingOrderItemInput(),
      buildArchiveOrderItemInput(),
      buildRecurringOrderItemInput(),
    ]) {
      expectIssueAt(CreateOrderRequest, order(without(item, key)), ['order_items', 0, key]);
    }
  });

  it('a blank name is rejected after trimming', () => {
    expectIssueAt(
      OrderItemInput,
      { ...buildTaskingOrderItemInput(), name: '   ' },
      ['name'],
      'name is required',
    );
    expect(
      parseOk(OrderItemInput, { ...buildTaskingOrderItemInput(), name: '  Field 7 ' }).name,
    ).toBe('Field 7');
  });
});

describe('order item: TASKING', () => {
  it('needs start_date and end_date', () => {
    const item = buildTaskingOrderItemInput.minimal();
    expectIssueAt(
      CreateOrderRequest,
      order(without(item, 'start_date')),
      ['order_items', 0, 'start_date'],
      'start_date is required for a tasking item',
    );
    expectIssueAt(
      CreateOrderRequest,
      order(without(item, 'end_date')),
      ['order_items', 0, 'end_date'],
      'end_date is required for a tasking item',
    );
  });

  it('recurrence ONCE keeps it tasking; one occurrence at most', () => {
    parseOk(OrderItemInput, {
      ...buildTaskingOrderItemInput.minimal(),
      recurrence: 'ONCE',
      no_of_occurrences: 1,
    });
    expectIssueAt(
      OrderItemInput,
      { ...buildTaskingOrderItemInput.minimal(), no_of_occurrences: 3 },
      ['no_of_occurrences'],
      /one occurrence/,
    );
  });
});

describe('order item: RECURRING', () => {
  it.each(['start_date', 'end_date', 'no_of_occurrences'])('needs %s', (key) => {
    expectIssueAt(
      OrderItemInput,
      without(buildRecurringOrderItemInput.minimal(), key),
      [key],
      `${key} is required for a recurring item`,
    );
  });

  it('no_of_occurrences is an integer 1..366', () => {
    const item = buildRecurringOrderItemInput.minimal();
    expectIssueAt(OrderItemInput, { ...item, no_of_occurrences: 0 }, ['no_of_occurrences']);
    expectIssueAt(OrderItemInput, { ...item, no_of_occurrences: 367 }, ['no_of_occurrences']);
    expectIssueAt(OrderItemInput, { ...item, no_of_occurrences: 2.5 }, ['no_of_occurrences']);
  });

  it('recurrence is one of the known values, exact case', () => {
    expectIssueAt(
      OrderItemInput,
      { ...buildRecurringOrderItemInput.minimal(), recurrence: 'weekly' },
      ['recurrence'],
    );
    expectIssueAt(
      OrderItemInput,
      { ...buildRecurringOrderItemInput.minimal(), recurrence: 'YEARLY' },
      ['recurrence'],
    );
  });
});

describe('order item: ARCHIVE', () => {
  it('needs no dates, but a non-empty item_ids', () => {
    const item = buildArchiveOrderItemInput.minimal();
    expect(item).not.toHaveProperty('start_date');
    parseOk(OrderItemInput, item);
    expectIssueAt(OrderItemInput, { ...item, item_ids: [] }, ['item_ids'], /at least one id/);
    expectIssueAt(OrderItemInput, { ...item, item_ids: [''] }, ['item_ids', 0]);
  });

  it('cannot recur or have several occurrences', () => {
    const item = buildArchiveOrderItemInput.minimal();
    parseOk(OrderItemInput, { ...item, recurrence: 'ONCE', no_of_occurrences: 1 });
    expectIssueAt(
      OrderItemInput,
      { ...item, recurrence: 'WEEKLY' },
      ['recurrence'],
      'an archive item (with item_ids) cannot recur',
    );
    expectIssueAt(
      OrderItemInput,
      { ...item, no_of_occurrences: 2 },
      ['no_of_occurrences'],
      'an archive item (with item_ids) has one occurrence',
    );
  });
});

describe('order item: end after start', () => {
  const base = () => buildTaskingOrderItemInput.minimal();

  it('equal or reversed dates are rejected at end_date', () => {
    const t = '2025-03-01T00:00:00Z';
    expectIssueAt(
      OrderItemInput,
      { ...base(), start_date: t, end_date: t },
      ['end_date'],
      'end_date must be after start_date',
    );
    expectIssueAt(
      OrderItemInput,
      { ...base(), start_date: '2025-03-02T00:00:00Z', end_date: t },
      ['end_date'],
      'end_date must be after start_date',
    );
    expectIssueAt(
      OrderItemInput,
      { ...buildArchiveOrderItemInput.minimal(), start_date: '2025-03-02T00:00:00Z', end_date: t },
      ['end_date'],
    );
  });

  it('compares instants, not text: offsets are honoured', () => {
    // 10:00+02:00 is 08:00Z, before 09:00Z, although "10" > "09" as text.
    parseOk(OrderItemInput, {
      ...base(),
      start_date: '2025-03-01T10:00:00+02:00',
      end_date: '2025-03-01T09:00:00Z',
    });
    expectIssueAt(
      OrderItemInput,
      { ...base(), start_date: '2025-03-01T08:00:00Z', end_date: '2025-03-01T09:30:00+02:00' },
      ['end_date'],
    );
  });

  it('a malformed date is reported once, at its own field', () => {
    const issues = issuesOf(OrderItemInput, {
      ...base(),
      start_date: '2025-03-01',
      end_date: '2025-03-05T00:00:00Z',
    });
    expect(issues.map((i) => i.path)).toEqual([['start_date']]);
    expect(issues[0]!.message).toMatch(/a date alone is not a date-time/);
  });
});

describe('order item: other fields', () => {
  const base = () => buildTaskingOrderItemInput();
  it.each([
    ['cloud_cover', -1, 'cloud_cover is a percentage >= 0'],
    ['cloud_cover', 100.5, 'cloud_cover is a percentage <= 100'],
    ['off_nadir', -0.1, 'off_nadir is degrees >= 0'],
    ['off_nadir', 61, 'off_nadir is degrees <= 60'],
    ['delivery_speed', 'standard', undefined],
    ['delivery_speed', 'WARP', undefined],
    ['usecase', '', undefined],
    ['cloud_delivery', { config: 'aws', path: '' }, undefined],
    ['bandset', { bandset_id: 'b', bands: [] }, undefined],
  ] as [string, unknown, string | undefined][])('%s = %j is rejected', (key, value, message) => {
    const issue = expectIssueAt(
      OrderItemInput,
      { ...base(), [key]: value },
      [key].concat(key === 'cloud_delivery' ? ['path'] : []),
    );
    if (message) expect(issue.message).toBe(message);
  });

  it('accepts the spec sample values', () => {
    const item = parseOk(OrderItemInput, {
      ...base(),
      recurrence: 'ONCE',
      delivery_speed: 'STANDARD',
      usecase: 'agriculture',
      cloud_cover: 0,
      off_nadir: 60,
    });
    expect(item).toMatchObject({
      recurrence: 'ONCE',
      delivery_speed: 'STANDARD',
      usecase: 'agriculture',
    });
  });
});

describe('order item geometry: a FeatureCollection', () => {
  const base = () => buildTaskingOrderItemInput.minimal();
  const polygon = {
    type: 'Polygon',
    coordinates: [
      [
        [1.6, 48.2],
        [1.7, 48.2],
        [1.7, 48.3],
        [1.6, 48.2],
      ],
    ],
  };

  it('a bare geometry is rejected', () => {
    expectIssueAt(OrderItemInput, { ...base(), geometry: polygon }, ['geometry', 'type']);
  });

  it('needs at least one feature, each a Feature with a valid geometry', () => {
    expectIssueAt(
      OrderItemInput,
      { ...base(), geometry: { type: 'FeatureCollection', features: [] } },
      ['geometry', 'features'],
      'a feature collection needs at least one feature',
    );
    expectIssueAt(
      OrderItemInput,
      {
        ...base(),
        geometry: { type: 'FeatureCollection', features: [{ type: 'feature', geometry: polygon }] },
      },
      ['geometry', 'features', 0, 'type'],
    );
    const open = {
      type: 'Polygon',
      coordinates: [
        [
          [1.6, 48.2],
          [1.7, 48.2],
          [1.7, 48.3],
          [1.6, 48.3],
        ],
      ],
    };
    expectIssueAt(
      OrderItemInput,
      {
        ...base(),
        geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: open }] },
      },
      ['geometry', 'features', 0, 'geometry', 'coordinates', 0],
      /must be closed/,
    );
  });

  it('features may carry properties (or null), an id and a bbox, nothing else', () => {
    const feature = {
      type: 'Feature',
      geometry: polygon,
      properties: null,
      id: 7,
      bbox: [1.6, 48.2, 1.7, 48.3],
    };
    parseOk(OrderItemInput, {
      ...base(),
      geometry: { type: 'FeatureCollection', features: [feature] },
    });
    expectIssueAt(
      OrderItemInput,
      { ...base(), geometry: { type: 'FeatureCollection', features: [{ ...feature, style: {} }] } },
      ['geometry', 'features', 0],
    );
  });
});

describe('an order bounds the positions of all its geometries together', () => {
  it(`refuses more than LIMITS.maxOrderVertices positions over its items`, () => {
    const n = LIMITS.maxGeometryVertices - 1;
    const ring = Array.from({ length: n }, (_, i) => [
      10 + 0.01 * Math.cos((2 * Math.PI * i) / n),
      45 + 0.01 * Math.sin((2 * Math.PI * i) / n),
    ]);
    const geometry = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] } },
      ],
    };
    const item = { ...buildTaskingOrderItemInput(), geometry };
    const fits = Math.floor(LIMITS.maxOrderVertices / (n + 1));
    parseOk(CreateOrderRequest, order(...Array.from({ length: fits }, () => item)));
    expectIssueAt(
      CreateOrderRequest,
      order(...Array.from({ length: fits + 1 }, () => item)),
      ['order_items'],
      /at most 50000 positions together/,
    );
  });
});
