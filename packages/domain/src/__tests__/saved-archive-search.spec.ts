import { describe, expect, it } from 'vitest';
import { LIMITS, SavedArchiveSearch, SavedArchiveSearchList } from '../index';
import { expectIssueAt, parseOk } from './support';

const saved = () => ({
  id: 'floods-po',
  name: 'Po valley floods',
  search: {
    satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
    start_date: '2024-01-01T00:00:00Z',
    end_date: '2024-06-30T00:00:00Z',
    filters: [{ id: 'eo:cloud_cover', max: 20 }],
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [11, 44],
          [12, 44],
          [12, 45],
          [11, 45],
          [11, 44],
        ],
      ],
    },
  },
});

describe('saved archive search', () => {
  it('keeps a satellite search without paging, with a default cap of scenes', () => {
    const parsed = parseOk(SavedArchiveSearch, saved());
    expect(parsed.maxScenes).toBe(LIMITS.savedArchiveSearchDefaultScenes);
    expect(parsed.search).not.toHaveProperty('skip');
    expect(parsed.search).not.toHaveProperty('limit');
  });

  it('refuses paging in the search: the mirror pages it', () => {
    expectIssueAt(SavedArchiveSearch, { ...saved(), search: { ...saved().search, skip: 0 } }, [
      'search',
    ]);
  });

  it('bounds the cap of scenes', () => {
    const max = LIMITS.savedArchiveSearchMaxScenes;
    expect(parseOk(SavedArchiveSearch, { ...saved(), maxScenes: max }).maxScenes).toBe(max);
    expectIssueAt(SavedArchiveSearch, { ...saved(), maxScenes: max + 1 }, ['maxScenes']);
    expectIssueAt(SavedArchiveSearch, { ...saved(), maxScenes: 0 }, ['maxScenes']);
  });

  it('checks the search window and the satellite as the request does', () => {
    expectIssueAt(
      SavedArchiveSearch,
      { ...saved(), search: { ...saved().search, end_date: '2023-01-01T00:00:00Z' } },
      ['search', 'end_date'],
      'end_date must not be before start_date',
    );
    expectIssueAt(
      SavedArchiveSearch,
      { ...saved(), search: { satellite: { collection_id: 'c' } } },
      ['search', 'satellite', 'satellite_id'],
    );
    expectIssueAt(SavedArchiveSearch, { ...saved(), name: '  ' }, ['name'], 'name is required');
  });

  it('searches given together have unique ids', () => {
    expect(
      parseOk(SavedArchiveSearchList, [saved(), { ...saved(), id: 'other' }]).map((s) => s.id),
    ).toEqual(['floods-po', 'other']);
    expectIssueAt(SavedArchiveSearchList, [saved(), saved()], [1, 'id'], 'duplicate id floods-po');
  });
});
