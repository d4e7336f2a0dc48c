import { describe, expect, it } from 'vitest';
import { compileCatalogSearch } from '../evaluate';
import { CatalogSearchRequest } from '../request';

/** The single issue of an invalid datetime: its path and message. */
function datetimeIssue(datetime: string) {
  const r = CatalogSearchRequest.safeParse({ datetime });
  expect(r.success).toBe(false);
  expect(r.error?.issues).toHaveLength(1);
  const issue = r.error!.issues[0]!;
  return { path: issue.path, message: issue.message };
}

describe('CatalogSearchRequest datetime', () => {
  it('rejects "/" with an empty side', () => {
    expect(datetimeIssue('/')).toEqual({
      path: ['datetime'],
      message:
        'an interval side is empty; write ".." for an open end (e.g. "../2024-01-01T00:00:00Z")',
    });
  });

  it('rejects "../.."', () => {
    expect(datetimeIssue('../..')).toEqual({
      path: ['datetime'],
      message: '"../.." is not an interval: at least one end must be given',
    });
  });

  it('rejects a reversed interval, naming both ends', () => {
    expect(datetimeIssue('2024-02-01T00:00:00Z/2024-01-01T00:00:00Z')).toEqual({
      path: ['datetime'],
      message: 'the interval is reversed: "2024-02-01T00:00:00Z" is after "2024-01-01T00:00:00Z"',
    });
  });

  it('rejects a date without time, saying so', () => {
    const { path, message } = datetimeIssue('2024-01-01/..');
    expect(path).toEqual(['datetime']);
    expect(message).toContain('interval start');
    expect(message).toContain('a date alone is not a date-time');
  });

  it('accepts an instant, a closed interval and open ends', () => {
    for (const datetime of [
      '2024-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z/2024-01-01T00:00:00Z',
      '../2024-01-01T00:00:00+02:00',
      '2024-01-01T00:00:00.5Z/..',
    ]) {
      expect(CatalogSearchRequest.safeParse({ datetime }).success).toBe(true);
    }
  });

  it('compileCatalogSearch refuses an invalid datetime that bypassed the schema', () => {
    expect(() => compileCatalogSearch({ limit: 10, offset: 0, datetime: '../..' })).toThrow(
      'datetime: "../.." is not an interval',
    );
  });
});
