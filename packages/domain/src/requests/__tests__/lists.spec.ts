import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AoiIdParams,
  CollectionIdParams,
  CreateJobBody,
  CreateJobQuery,
  CsvIds,
  LIMITS,
  ListAoiAssetsQuery,
  ListAoisQuery,
  ListArchiveItemsQuery,
  ListIndicesQuery,
  ListOrderItemsQuery,
  ListOrdersQuery,
  WorkflowIdParams,
} from '../../index';
import { expectIssueAt, parseOk } from '../../__tests__/support';

const LIST_QUERIES: [string, z.ZodType, number][] = [
  // Spec part 8: list AOIs, list AOI assets, list indices: limit 10, offset 0.
  ['ListAoisQuery', ListAoisQuery, 10],
  ['ListAoiAssetsQuery', ListAoiAssetsQuery, 10],
  ['ListIndicesQuery', ListIndicesQuery, 10],
  // Not shown by the spec; ours (LIMITS.openListDefaultLimit).
  ['ListOrderItemsQuery', ListOrderItemsQuery, LIMITS.openListDefaultLimit],
  ['ListOrdersQuery', ListOrdersQuery, LIMITS.openListDefaultLimit],
  ['ListArchiveItemsQuery', ListArchiveItemsQuery, LIMITS.openListDefaultLimit],
];

describe.each(LIST_QUERIES)('%s', (_name, schema, defaultLimit) => {
  it(`defaults: limit ${defaultLimit}, offset 0`, () => {
    expect(parseOk(schema, {})).toEqual({ limit: defaultLimit, offset: 0 });
  });

  it('coerces query strings: "20" -> 20, "5" -> 5', () => {
    expect(parseOk(schema, { limit: '20', offset: '5' })).toMatchObject({ limit: 20, offset: 5 });
  });

  it('bounds: limit 1..max, offset >= 0, both integers', () => {
    expect(parseOk(schema, { limit: '1', offset: '0' })).toMatchObject({ limit: 1, offset: 0 });
    expect(parseOk(schema, { limit: String(LIMITS.maxLimit) })).toMatchObject({
      limit: LIMITS.maxLimit,
    });
    expectIssueAt(schema, { limit: '0' }, ['limit'], 'limit must be at least 1');
    expectIssueAt(
      schema,
      { limit: String(LIMITS.maxLimit + 1) },
      ['limit'],
      `limit must be at most ${LIMITS.maxLimit}`,
    );
    expectIssueAt(schema, { limit: '2.5' }, ['limit'], 'limit must be an integer');
    expectIssueAt(schema, { limit: 'ten' }, ['limit'], 'limit must be an integer');
    expectIssueAt(schema, { offset: '-1' }, ['offset'], 'offset must be at least 0');
    expectIssueAt(schema, { offset: '1.5' }, ['offset'], 'offset must be an integer');
  });

  it('reads only plain decimal integers: no hex, sign, exponent, blanks or empty values', () => {
    for (const bad of ['0x10', '+1', '1e2', ' 1', '1 ', '', '1_0', '１', 'Infinity', '0b1']) {
      expectIssueAt(
        schema,
        { limit: bad },
        ['limit'],
        'limit must be an integer in decimal digits',
      );
      expectIssueAt(schema, { offset: bad }, ['offset'], 'offset must be an integer');
    }
    expectIssueAt(schema, { limit: ['1', '2'] }, ['limit']);
    expect(parseOk(schema, { limit: '010', offset: '0' })).toMatchObject({ limit: 10, offset: 0 });
    // Clients validate the query objects they build, with numbers.
    expect(parseOk(schema, { limit: 20, offset: 5 })).toMatchObject({ limit: 20, offset: 5 });
    expectIssueAt(schema, { limit: 2.5 }, ['limit'], 'limit must be an integer');
  });

  it('rejects an unknown parameter, naming it', () => {
    const issue = expectIssueAt(schema, { limit: '10', colour: 'red' }, []);
    expect(issue.code).toBe('unrecognized_keys');
    expect(issue.message).toContain('colour');
  });
});

describe('comma-separated lists', () => {
  it('split on commas, trim, drop empty parts, and accept repeated keys', () => {
    expect(CsvIds.parse('a,b,c')).toEqual(['a', 'b', 'c']);
    expect(CsvIds.parse(' a , b ,,c, ')).toEqual(['a', 'b', 'c']);
    expect(CsvIds.parse(['a', 'b,c'])).toEqual(['a', 'b', 'c']);
    expect(CsvIds.parse('single')).toEqual(['single']);
  });

  it('an empty list is rejected: omit the parameter instead', () => {
    for (const v of ['', ',', ' , ', []]) {
      expectIssueAt(CsvIds, v, [], 'the list is empty; omit the parameter to not filter');
    }
    expectIssueAt(ListAoisQuery, { project_ids: ',' }, ['project_ids'], /the list is empty/);
  });

  it('at most maxIdsPerFilter values', () => {
    const many = Array.from({ length: LIMITS.maxIdsPerFilter + 1 }, (_, i) => `id${i}`).join(',');
    expectIssueAt(CsvIds, many, [], `at most ${LIMITS.maxIdsPerFilter} values`);
  });

  it('list AOIs: project_ids; list order items: ids, order_ids, project_ids, type, status', () => {
    expect(parseOk(ListAoisQuery, { project_ids: 'p1,p2' }).project_ids).toEqual(['p1', 'p2']);
    const q = parseOk(ListOrderItemsQuery, {
      ids: 'i1,i2',
      order_ids: ['o1', 'o2,o3'],
      project_ids: 'p1',
      type: 'ARCHIVE,TASKING',
      status: 'ACTIVE',
    });
    expect(q).toMatchObject({
      ids: ['i1', 'i2'],
      order_ids: ['o1', 'o2', 'o3'],
      project_ids: ['p1'],
      type: ['ARCHIVE', 'TASKING'],
      status: ['ACTIVE'],
    });
    expectIssueAt(ListOrderItemsQuery, { type: 'ARCHIVE,BULK' }, ['type', 1]);
  });
});

describe('range filters use the interval syntax', () => {
  it('list order items: created_at instants and area numbers', () => {
    for (const created_at of [
      '2024-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z/2024-02-01T00:00:00Z',
      '../2024-02-01T00:00:00Z',
      '2024-01-01T00:00:00+02:00/..',
    ]) {
      expect(parseOk(ListOrderItemsQuery, { created_at }).created_at).toBe(created_at);
    }
    for (const area of ['100', '100/5000', '../5000', '0.5/..']) {
      expect(parseOk(ListOrderItemsQuery, { area }).area).toBe(area);
    }
    expectIssueAt(
      ListOrderItemsQuery,
      { created_at: '2024-01-01/..' },
      ['created_at'],
      /a date alone is not a date-time/,
    );
    expectIssueAt(ListOrderItemsQuery, { area: '5000/100' }, ['area'], /reversed/);
    expectIssueAt(ListOrderItemsQuery, { area: 'big' }, ['area'], /"big" is not a number/);
  });

  it('list AOIs: created_at and updated_at', () => {
    expect(parseOk(ListAoisQuery, { updated_at: '2024-05-01T00:00:00Z/..' }).updated_at).toBe(
      '2024-05-01T00:00:00Z/..',
    );
    expectIssueAt(ListAoisQuery, { created_at: '../..' }, ['created_at'], /at least one end/);
  });

  it('other filters: ids non-empty, index type and expression type enums', () => {
    expectIssueAt(ListAoisQuery, { aoi_id: '' }, ['aoi_id'], 'must not be empty');
    expectIssueAt(ListOrdersQuery, { user_id: '' }, ['user_id'], 'must not be empty');
    expect(
      parseOk(ListIndicesQuery, {
        type: 'preset',
        expression_type: 'composite',
        satellite_id: 's2',
      }),
    ).toMatchObject({
      type: 'preset',
      expression_type: 'composite',
    });
  });
});

describe('path parameters and the job query', () => {
  it('ids are non-empty strings; no other key', () => {
    expect(parseOk(AoiIdParams, { aoi_id: 'a1' })).toEqual({ aoi_id: 'a1' });
    expectIssueAt(AoiIdParams, { aoi_id: '' }, ['aoi_id'], 'must not be empty');
    expectIssueAt(CollectionIdParams, {}, ['cid']);
    expectIssueAt(WorkflowIdParams, { workflow_id: 'w', extra: 'x' }, []);
  });

  it('create job: project_id required, no body (an empty object tolerated)', () => {
    expect(parseOk(CreateJobQuery, { project_id: 'p1' })).toEqual({ project_id: 'p1' });
    expectIssueAt(CreateJobQuery, {}, ['project_id']);
    expectIssueAt(CreateJobQuery, { project_id: '' }, ['project_id'], 'project_id is required');
    expect(CreateJobBody.parse(undefined)).toBeUndefined();
    expect(CreateJobBody.parse({})).toEqual({});
    expectIssueAt(CreateJobBody, { name: 'x' }, []);
  });
});
