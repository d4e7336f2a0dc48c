import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AOI_STATUSES,
  ASSET_TYPES,
  ASSET_STATUSES,
  Aoi,
  CATALOG_DELIVERY_STATUSES,
  DELIVERY_SPEEDS,
  DELIVERY_STATUSES,
  ENUMS,
  EXPRESSION_TYPES,
  FEASIBILITY_STATUSES,
  IMAGE_TYPES,
  INDEX_TYPES,
  ListIndicesQuery,
  ListOrderItemsQuery,
  ORDER_ITEM_STATUSES,
  ORDER_ITEM_TYPES,
  ORDER_STATUSES,
  Order,
  OrderItem,
  PAYMENT_STATUSES,
  RECURRENCES,
  SORT_DIRECTIONS,
  SpectralIndex,
  TASK_DELIVERY_STATUSES,
  TASK_STATUSES,
  TASK_TYPES,
  USECASES,
  VISUALIZATION_STATUSES,
  VISUALIZATION_TYPES,
  Visualization,
} from '../index';
import {
  buildAoi,
  buildOrder,
  buildOrderItem,
  buildSpectralIndex,
  buildVisualization,
} from '../testing';
import { expectIssueAt, otherCase, parseOk } from './support';

describe('enum values match the spec', () => {
  it('part 3 state sets and part 2 closed sets, in spec order', () => {
    expect(ORDER_STATUSES).toEqual(['PAID', 'REFUND', 'UNPAID', 'PAYMENT_IN_PROGRESS']);
    expect(ORDER_ITEM_TYPES).toEqual(['TASKING', 'ARCHIVE', 'RECURRING']);
    expect(ORDER_ITEM_STATUSES).toEqual([
      'DRAFT',
      'ACTIVE',
      'COMPLETED',
      'CANCELLED',
      'FAILED',
      'PARTIALLY_COMPLETED',
    ]);
    expect(PAYMENT_STATUSES).toEqual([
      'PAID',
      'PARTIAL-REFUND',
      'REFUND',
      'UNPAID',
      'PARTIAL-MONTHLY',
    ]);
    expect(FEASIBILITY_STATUSES).toEqual(['FAILED', 'WEAK_SUCCESS', 'SUCCESS']);
    expect(AOI_STATUSES).toEqual([
      'success',
      'started',
      'running',
      'failed',
      'updating',
      'partial_success',
    ]);
    expect(VISUALIZATION_STATUSES).toEqual(['creating', 'success', 'failed', 'partial_success']);
    expect(EXPRESSION_TYPES).toEqual(['composite', 'index', 'grayscale']);
    expect(INDEX_TYPES).toEqual(['custom', 'preset']);
    expect(VISUALIZATION_TYPES).toEqual(['custom']);
    expect(SORT_DIRECTIONS).toEqual(['asc', 'desc']);
  });

  it('ENUMS lists every enum with its schema', () => {
    expect(Object.keys(ENUMS).sort()).toEqual(
      [
        'AoiStatus',
        'ExpressionType',
        'FeasibilityStatus',
        'IndexType',
        'OrderItemStatus',
        'OrderItemType',
        'OrderStatus',
        'PaymentStatus',
        'SortDirection',
        'VisualizationStatus',
        'VisualizationType',
      ].sort(),
    );
  });
});

describe.each(Object.entries(ENUMS))('%s', (_name, { values, schema }) => {
  it.each([...values])('accepts %s', (v) => {
    expect(schema.parse(v)).toBe(v);
  });
  it.each([...values])('rejects the other case of %s', (v) => {
    const r = schema.safeParse(otherCase(v));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.code).toBe('invalid_value');
  });
  it('rejects a number, an empty string and null', () => {
    for (const bad of [0, '', null]) expect(schema.safeParse(bad).success).toBe(false);
  });
});

describe('resource fields use their enum', () => {
  const fields: [string, z.ZodType, () => Record<string, unknown>, string, readonly string[]][] = [
    ['Order.status', Order, () => buildOrder(), 'status', ORDER_STATUSES],
    ['OrderItem.type', OrderItem, () => buildOrderItem(), 'type', ORDER_ITEM_TYPES],
    ['OrderItem.status', OrderItem, () => buildOrderItem(), 'status', ORDER_ITEM_STATUSES],
    [
      'OrderItem.payment_status',
      OrderItem,
      () => buildOrderItem(),
      'payment_status',
      PAYMENT_STATUSES,
    ],
    [
      'OrderItem.feasibility_status',
      OrderItem,
      () => buildOrderItem(),
      'feasibility_status',
      FEASIBILITY_STATUSES,
    ],
    ['Aoi.status', Aoi, () => buildAoi(), 'status', AOI_STATUSES],
    [
      'Visualization.status',
      Visualization,
      () => buildVisualization(),
      'status',
      VISUALIZATION_STATUSES,
    ],
    [
      'Visualization.expression_type',
      Visualization,
      () => buildVisualization(),
      'expression_type',
      EXPRESSION_TYPES,
    ],
    ['Visualization.type', Visualization, () => buildVisualization(), 'type', VISUALIZATION_TYPES],
    [
      'SpectralIndex.expression_type',
      SpectralIndex,
      () => buildSpectralIndex(),
      'expression_type',
      EXPRESSION_TYPES,
    ],
    ['SpectralIndex.type', SpectralIndex, () => buildSpectralIndex(), 'type', INDEX_TYPES],
  ];
  it.each(fields)(
    '%s: every value accepted, the other case rejected at the field',
    (_n, schema, make, field, values) => {
      for (const v of values) {
        expect((parseOk(schema, { ...make(), [field]: v }) as Record<string, unknown>)[field]).toBe(
          v,
        );
        expectIssueAt(
          schema,
          { ...make(), [field]: otherCase(v) },
          [field],
          new RegExp(`expected.*"${v}"`),
        );
      }
    },
  );

  it('query enums: order item type/status lists and index type', () => {
    expect(ListOrderItemsQuery.parse({ type: ORDER_ITEM_TYPES.join(',') }).type).toEqual([
      ...ORDER_ITEM_TYPES,
    ]);
    expect(ListOrderItemsQuery.parse({ status: ORDER_ITEM_STATUSES.join(',') }).status).toEqual([
      ...ORDER_ITEM_STATUSES,
    ]);
    expectIssueAt(ListOrderItemsQuery, { status: 'ACTIVE,active' }, ['status', 1]);
    for (const t of INDEX_TYPES) expect(ListIndicesQuery.parse({ type: t }).type).toBe(t);
    expectIssueAt(ListIndicesQuery, { type: 'Custom' }, ['type']);
    expectIssueAt(ListIndicesQuery, { expression_type: 'INDEX' }, ['expression_type']);
  });
});

describe('known values (open fields of 2.14) include the spec sample values', () => {
  it.each([
    ['delivery_speed', DELIVERY_SPEEDS, 'STANDARD'],
    ['image_type', IMAGE_TYPES, 'VNIR'],
    ['recurrence', RECURRENCES, 'ONCE'],
    ['usecase', USECASES, 'agriculture'],
    ['task type', TASK_TYPES, 'ARCHIVE'],
    ['task status', TASK_STATUSES, 'COMPLETED'],
    ['task delivery_status', TASK_DELIVERY_STATUSES, 'SUCCESSFUL'],
    ['catalog delivery_status', CATALOG_DELIVERY_STATUSES, 'SUCCESSFUL'],
    ['delivery status', DELIVERY_STATUSES, 'SUCCESS'],
    ['asset status', ASSET_STATUSES, 'success'],
    ['asset_type', ASSET_TYPES, 'mosaic'],
  ] as [string, readonly string[], string][])('%s includes %s', (_field, values, sample) => {
    expect(values).toContain(sample);
    expect(new Set(values).size).toBe(values.length);
  });
});
