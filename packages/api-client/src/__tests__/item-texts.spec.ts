/**
 * Each catalog record's text as the page carried it (`PageOptions.itemTexts`,
 * `receivedTextOf`): the scan that finds the texts agrees with `JSON.parse` on any JSON, and the
 * pager keeps a page's texts only when its records are handed on exactly as parsed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { catalogRecord } from '../../test/records';
import { createEoClient, receivedTextOf, type EoClient } from '../index';
import { keepItemTexts, memberElementTexts } from '../item-texts';

/** A JSON object with `catalogs` among other members, in any order. */
const pageOf = fc
  .tuple(
    fc.array(fc.jsonValue(), { maxLength: 8 }),
    fc.dictionary(
      fc.string().filter((k) => k !== 'catalogs'),
      fc.jsonValue(),
      { maxKeys: 4 },
    ),
    fc.nat(),
  )
  .map(([items, others, at]) => {
    const entries = Object.entries(others);
    entries.splice(at % (entries.length + 1), 0, ['catalogs', items]);
    return { items, page: Object.fromEntries(entries) as Record<string, unknown> };
  });

describe('memberElementTexts', () => {
  it('finds the texts JSON.stringify wrote, for any elements among any members', () => {
    fc.assert(
      fc.property(pageOf, ({ items, page }) => {
        expect(memberElementTexts(JSON.stringify(page), 'catalogs')).toEqual(
          items.map((x) => JSON.stringify(x)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('reads spaced-out text: each element text parses to that element', () => {
    fc.assert(
      fc.property(pageOf, fc.constantFrom(1, 2, '\t', ' \r\n '), ({ items, page }, indent) => {
        const texts = memberElementTexts(JSON.stringify(page, null, indent), 'catalogs');
        expect(texts?.map((t) => JSON.parse(t) as unknown)).toEqual(
          JSON.parse(JSON.stringify(items)),
        );
        // A text is the element alone: no space around it.
        for (const t of texts!) expect(t).toBe(t.trim());
      }),
      { numRuns: 300 },
    );
  });

  it('follows quotes and backslashes inside strings, and an escaped key', () => {
    const tricky = ['a"b', 'c\\', '\\"', ']}', '{"x":[', 'é\u2028'];
    const text = `{"n\\u0061me":"]\\"}","cat\\u0061logs":[${tricky.map((s) => JSON.stringify(s)).join(' , ')}]}`;
    expect(memberElementTexts(text, 'catalogs')).toEqual(tricky.map((s) => JSON.stringify(s)));
    expect(memberElementTexts('{"catalogs":[]}', 'catalogs')).toEqual([]);
    expect(memberElementTexts(' { "catalogs" : [ 1 , -2.5e3 , null ] } ', 'catalogs')).toEqual([
      '1',
      '-2.5e3',
      'null',
    ]);
  });

  it('gives nothing where the member cannot be matched one to one', () => {
    expect(memberElementTexts('{"catalogs":[1],"catalogs":[2]}', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('{"records":[1]}', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('{"catalogs":{"0":1}}', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('[{"catalogs":[1]}]', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('{"x":{"catalogs":[1]}}', 'catalogs')).toBeUndefined();
  });

  it('ends on cut-off and hostile text in time linear in its length', () => {
    expect(memberElementTexts('{"catalogs":["a', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('{"catalogs":[{"a":1}', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('{"catalogs":[1', 'catalogs')).toBeUndefined();
    expect(memberElementTexts('{"catalogs"', 'catalogs')).toBeUndefined();
    // 2 MB of nesting and of backslashes before a quote: one pass each, no recursion.
    const deep = `{"catalogs":[${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}]}`;
    expect(memberElementTexts(deep, 'catalogs')).toHaveLength(1);
    const slashes = `{"catalogs":["${'\\\\'.repeat(500_000)}"]}`;
    expect(memberElementTexts(slashes, 'catalogs')?.[0]).toHaveLength(1_000_002);
  });
});

describe('keepItemTexts', () => {
  it('keeps nothing when the texts and the items do not pair up', () => {
    const items = [{ id: 'a' }, { id: 'b' }];
    keepItemTexts('{"catalogs":[{"id":"a"}]}', 'catalogs', items);
    expect(items.map(receivedTextOf)).toEqual([undefined, undefined]);
    keepItemTexts('{"catalogs":[{"id":"a"},{"id":"b"}]}', 'catalogs', items);
    expect(items.map(receivedTextOf)).toEqual(['{"id":"a"}', '{"id":"b"}']);
  });
});

describe('catalog pages with itemTexts', () => {
  let srv: TestHttpServer;
  let client: EoClient;
  let body = '';
  beforeAll(async () => {
    srv = await startHttpServer();
    srv.setHandler(() => ({ text: body }));
    client = createEoClient({ baseUrl: srv.url, apiKey: 'eok_texts' });
  });
  afterAll(async () => srv.close());

  const records = [catalogRecord(1), catalogRecord(2), catalogRecord(3)];
  const pagination = { limit: 10, offset: 0, total: 3 };
  const firstPage = async (itemTexts: boolean) => {
    for await (const page of client.pages.catalogs({}, { pageSize: 10, itemTexts }))
      return page.items;
    throw new Error('no page');
  };

  it("keeps each record's own characters, spacing included", async () => {
    body = JSON.stringify({ catalogs: records, pagination }, null, 1);
    const items = await firstPage(true);
    const texts = items.map(receivedTextOf);
    expect(texts.every((t) => t !== undefined && body.includes(t))).toBe(true);
    expect(texts.map((t) => JSON.parse(t!) as unknown)).toEqual(items);
    expect(texts[0]).toContain('\n');
  });

  it('keeps none unless asked', async () => {
    body = JSON.stringify({ catalogs: records, pagination });
    expect((await firstPage(false)).map(receivedTextOf)).toEqual([undefined, undefined, undefined]);
  });

  it('keeps none for a page the client changed or salvaged: a default filled in, a drifted record', async () => {
    const withoutLinks = records.map((r, i) => {
      if (i !== 1) return r;
      const { links: _links, ...details } = r.details as Record<string, unknown>;
      return { ...r, details };
    });
    body = JSON.stringify({ catalogs: withoutLinks, pagination });
    const filled = await firstPage(true);
    expect((filled[1]!.details as { links: unknown }).links).toEqual([]);
    expect(filled.map(receivedTextOf)).toEqual([undefined, undefined, undefined]);

    // A numeric id fails the schema: the page is read through zod and salvaged.
    body = JSON.stringify({ catalogs: [records[0], { ...records[1], id: 12345 }], pagination });
    const salvaged = await firstPage(true);
    expect(salvaged.map((r) => r.id)).toEqual([records[0]!.id, 12345]);
    expect(salvaged.map(receivedTextOf)).toEqual([undefined, undefined]);
  });
});
