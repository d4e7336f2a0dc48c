import { describe, expect, it } from 'vitest';
import { LIMITS, SatelliteSearchRequest } from '../../index';
import { expectIssueAt, parseOk } from '../../__tests__/support';
import { buildSatelliteSearchRequest } from '../../testing';

describe('satellite image search (4.5)', () => {
  const minimal = () => buildSatelliteSearchRequest.minimal();

  it('only satellite is required; skip and limit get defaults', () => {
    expect(parseOk(SatelliteSearchRequest, minimal())).toMatchObject({
      skip: 0,
      limit: LIMITS.satelliteSearchDefaultLimit,
    });
    expectIssueAt(SatelliteSearchRequest, {}, ['satellite']);
    expectIssueAt(SatelliteSearchRequest, { satellite: { satellite_id: 's2' } }, [
      'satellite',
      'collection_id',
    ]);
    expectIssueAt(
      SatelliteSearchRequest,
      { satellite: { collection_id: 'c', satellite_id: '' } },
      ['satellite', 'satellite_id'],
      'satellite_id is required',
    );
  });

  it('spec part 8: skip >= 0 and limit >= 1', () => {
    expect(parseOk(SatelliteSearchRequest, { ...minimal(), skip: 0, limit: 1 })).toMatchObject({
      skip: 0,
      limit: 1,
    });
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), skip: -1 },
      ['skip'],
      'skip must be at least 0',
    );
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), limit: 0 },
      ['limit'],
      'limit must be at least 1',
    );
    expectIssueAt(SatelliteSearchRequest, { ...minimal(), limit: LIMITS.maxLimit + 1 }, ['limit']);
    expectIssueAt(SatelliteSearchRequest, { ...minimal(), skip: 1.5 }, ['skip']);
  });

  it('a JSON body is not coerced: "5" is not a number', () => {
    expectIssueAt(SatelliteSearchRequest, { ...minimal(), skip: '5' }, ['skip']);
    expectIssueAt(SatelliteSearchRequest, { ...minimal(), limit: '20' }, ['limit']);
  });

  it('dates are RFC 3339 date-times; the end may equal but not precede the start', () => {
    parseOk(SatelliteSearchRequest, {
      ...minimal(),
      start_date: '2024-05-01T00:00:00Z',
      end_date: '2024-05-01T00:00:00Z',
    });
    parseOk(SatelliteSearchRequest, {
      ...minimal(),
      start_date: '2024-05-01T02:00:00+02:00',
      end_date: '2024-05-01T00:00:00Z',
    });
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), start_date: '2024-05-01' },
      ['start_date'],
      /a date alone/,
    );
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), start_date: '2024-05-02T00:00:00Z', end_date: '2024-05-01T00:00:00Z' },
      ['end_date'],
      'end_date must not be before start_date',
    );
  });

  it('filters: id plus min, max or both, min <= max, no other key', () => {
    parseOk(SatelliteSearchRequest, {
      ...minimal(),
      filters: [
        { id: 'gsd', min: 0.5 },
        { id: 'eo:cloud_cover', max: 20 },
        { id: 'x', min: 1, max: 1 },
      ],
    });
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), filters: [{ id: 'gsd' }] },
      ['filters', 0],
      'a filter needs min, max or both',
    );
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), filters: [{ id: 'gsd', min: 5, max: 1 }] },
      ['filters', 0, 'max'],
      'max must not be below min',
    );
    expectIssueAt(SatelliteSearchRequest, { ...minimal(), filters: [{ id: '', max: 1 }] }, [
      'filters',
      0,
      'id',
    ]);
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), filters: [{ id: 'gsd', max: 1, op: 'lt' }] },
      ['filters', 0],
    );
    expectIssueAt(SatelliteSearchRequest, { ...minimal(), filters: [{ id: 'gsd', max: '1' }] }, [
      'filters',
      0,
      'max',
    ]);
  });

  it('geometry: any valid GeoJSON geometry', () => {
    parseOk(SatelliteSearchRequest, {
      ...minimal(),
      geometry: { type: 'Point', coordinates: [1.6, 48.2] },
    });
    expectIssueAt(
      SatelliteSearchRequest,
      { ...minimal(), geometry: { type: 'Point', coordinates: [200, 48.2] } },
      ['geometry', 'coordinates', 0],
    );
  });

  it('unknown fields are rejected by name', () => {
    const issue = expectIssueAt(SatelliteSearchRequest, { ...minimal(), offset: 0 }, []);
    expect(issue.message).toContain('offset');
  });
});
