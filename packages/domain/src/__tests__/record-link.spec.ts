import { describe, expect, it } from 'vitest';
import {
  formatRecordLink,
  MAX_RECORD_LINK_CHARS,
  parseRecordLink,
  recordLinkFromParts,
  recordLinkParts,
  type RecordLink,
} from '../index';

const search: RecordLink = {
  kind: 'search',
  name: 'Maize & rice, May',
  query: {
    bbox: [4.1, 43.4, 4.9, 43.8],
    datetime: '2024-05-01T00:00:00Z/2024-05-31T23:59:59Z',
    query: { 'eo:cloud_cover': { lt: 20 } },
    limit: 50,
    offset: 100,
  },
};

describe('record links', () => {
  it('formats and reads back a scene, an AOI, an order and a search with its filters', () => {
    expect(formatRecordLink({ kind: 'scene', id: 'S2A_31TFJ_20240517' })).toBe(
      'eo-field-desk://scene/S2A_31TFJ_20240517',
    );
    for (const link of [
      { kind: 'scene', id: 'S2A_31TFJ_20240517' },
      { kind: 'aoi', id: 'aoi-7f3c' },
      { kind: 'order', id: 'ord:2024.05~1' },
    ] as const) {
      expect(parseRecordLink(formatRecordLink(link))).toEqual({ ok: true, link });
    }
    const back = parseRecordLink(formatRecordLink(search));
    expect(back.ok && back.link).toMatchObject({
      kind: 'search',
      name: 'Maize & rice, May',
      query: { bbox: [4.1, 43.4, 4.9, 43.8], query: { 'eo:cloud_cover': { lt: 20 } } },
    });
    // Paging is not the link's: the other laptop's list starts at its first page.
    expect(back.ok && back.link.kind === 'search' && back.link.query.offset).toBe(0);
  });

  it('gives the browser route the same parts', () => {
    expect(recordLinkParts({ kind: 'aoi', id: 'a-1' })).toEqual({ kind: 'aoi', id: 'a-1' });
    const parts = recordLinkParts(search);
    expect(recordLinkFromParts(parts)).toEqual(parseRecordLink(formatRecordLink(search)));
  });

  it('reads what a chat app does to a link: case of the scheme, a trailing slash, spaces', () => {
    expect(parseRecordLink('  EO-Field-Desk://Scene/S1/ ')).toEqual({
      ok: true,
      link: { kind: 'scene', id: 'S1' },
    });
  });

  it('refuses hostile links with their reason', () => {
    const refused = (raw: unknown) => {
      const r = parseRecordLink(raw);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.reason;
    };
    expect(refused('https://evil.example/scene/S1')).toMatch(/not an eo-field-desk:\/\/ link/);
    expect(refused('javascript:alert(1)')).toMatch(/not an eo-field-desk/);
    expect(refused('eo-field-desk://scene/' + 'a'.repeat(MAX_RECORD_LINK_CHARS))).toMatch(
      /longer than 8192/,
    );
    expect(refused('eo-field-desk://scene/' + 'a'.repeat(201))).toMatch(/longer than any/);
    expect(refused('eo-field-desk://scene/..%2F..%2Fetc')).toMatch(/not a record id/);
    expect(refused('eo-field-desk://scene/<script>')).toMatch(/not a record id/);
    expect(refused('eo-field-desk://scene/%E0%A4%A')).toMatch(/not readable/);
    expect(refused('eo-field-desk://scene/')).toMatch(/id is missing/);
    expect(refused('eo-field-desk://scene/a/b')).toMatch(/more parts/);
    expect(refused('eo-field-desk://settings/apiKey')).toMatch(/not something a link opens/);
    expect(refused('eo-field-desk://search?q=%7Bnope')).toMatch(/not readable/);
    expect(refused('eo-field-desk://search?q=' + encodeURIComponent('{"limit":-1}'))).toMatch(
      /query.limit/,
    );
    expect(refused('eo-field-desk://search?q=' + encodeURIComponent('{"evil":1}'))).toMatch(
      /query/,
    );
    expect(refused('eo-field-desk://search')).toMatch(/no filters/);
    expect(refused(42)).toBe('not a link');
  });
});
