/**
 * Packed catalog records (the compact layout): whatever a service sends comes back byte for
 * byte, through the writers and readers, before and after the dictionary is learned; shared
 * values are stored once; what a blob needs that the database lost is an error, never a wrong
 * record.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPACT_LAYOUT } from '../../layout';
import { makeCatalogRecordReader } from '../../records';
import { makeCatalogUpserter, type CatalogRecordOut } from '../../writes';
import { tempCatalog } from '../../__tests__/temp-store';
import { packRecord, unpackRecord, type RecordContext } from '../record-blob';
import { DICTIONARY_SAMPLES, forgetCatalogShared, sharedTexts } from '../shared-texts';
import { record, wkt } from './arbitrary-records';

const RUNS = Number(process.env.PROP_RUNS ?? 200);
const links = { orgId: 'org', orderId: null, orderItemId: null };

describe('packed catalog records', () => {
  const db = tempCatalog('record-blob', COMPACT_LAYOUT);
  afterAll(() => db.close());
  const upsert = makeCatalogUpserter(db.sqlite, 'lenient', COMPACT_LAYOUT);
  const reader = makeCatalogRecordReader(db.sqlite, COMPACT_LAYOUT);

  it('reads back every record byte for byte (property, through the writer and the reader)', () => {
    let n = 0;
    fc.assert(
      fc.property(record, (r) => {
        const id = `r${n++}`;
        const stored = { ...r, id } as CatalogRecordOut;
        upsert(stored, links);
        expect(reader.byId('org', id)).toBe(JSON.stringify(stored));
      }),
      { numRuns: RUNS },
    );
    // Past the samples the dictionary exists, and records written before it still read.
    expect(n).toBeGreaterThan(DICTIONARY_SAMPLES);
    expect(sharedTexts(db.sqlite).dictionary).not.toBeNull();
    expect(reader.byId('org', 'r0')).not.toBeNull();
  });

  it('stores a shared value once, however many records carry it', () => {
    const before = db.sqlite
      .prepare("SELECT count(*) FROM catalog_shared WHERE kind = 'value'")
      .pluck();
    const zone = wkt(44);
    const start = before.get() as number;
    for (let i = 0; i < 20; i++)
      upsert(
        {
          id: `wkt-${i}`,
          details: { id: `i${i}`, properties: { 'proj:wkt2': zone } },
        } as unknown as CatalogRecordOut,
        links,
      );
    expect(before.get()).toBe(start + 1);
    const size = db.sqlite
      .prepare("SELECT length(record) FROM catalog_records WHERE id = 'wkt-7'")
      .pluck()
      .get() as number;
    expect(size).toBeLessThan(zone.length / 4);
  });

  it('never names a shared text whose insert was rolled back', () => {
    // A page write that fails rolls its new shared texts back, and AUTOINCREMENT hands their
    // ids to the next ones: a cached id from before the rollback would name another text.
    const withZone = (id: string, zone: number) =>
      ({
        id,
        details: { id, properties: { 'proj:wkt2': wkt(zone) } },
      }) as unknown as CatalogRecordOut;
    const failing = db.sqlite.transaction(() => {
      upsert(withZone('rolled-back', 50), links);
      throw new Error('the page failed');
    });
    expect(() => failing()).toThrow('the page failed');
    upsert(withZone('other-zone', 51), links);
    upsert(withZone('zone-again', 50), links);
    expect(reader.byId('org', 'rolled-back')).toBeNull();
    expect(reader.byId('org', 'other-zone')).toBe(JSON.stringify(withZone('other-zone', 51)));
    expect(reader.byId('org', 'zone-again')).toBe(JSON.stringify(withZone('zone-again', 50)));
  });

  it('reads back hostile texts exactly: numbers JSON.stringify never writes, huge, unicode', () => {
    const shared = sharedTexts(db.sqlite);
    const context: RecordContext = {
      id: 'hostile',
      itemId: 'item',
      createdAtUs: 0,
      updatedAtUs: 0,
      datetimeUs: null,
      geometry: null,
    };
    const texts = [
      '{"id":"hostile","n":-0,"big":1e21,"one":1.0,"e":1E+2,"tiny":5e-324}',
      '{ "id" : "hostile" ,\n\t"dup" : 1, "dup" : 2 }',
      `{"id":"hostile","s":"${'ab'.repeat(300_000)}"}`,
      '{"id":"hostile","t":"Пирамида 衛星 🛰️ é\u0301","lone":"\\ud800"}',
      `{"id":"hostile","w":${JSON.stringify(wkt(7))},"again":${JSON.stringify(wkt(7))}}`,
      'not json at all',
      '',
    ];
    for (const text of texts) {
      const blob = packRecord(text, [JSON.stringify(wkt(7))], context, shared);
      expect(unpackRecord(blob, context, shared)).toBe(text);
    }
  });

  it('reads back records whose context does not fit beside the dictionary, and the next ones', () => {
    // A record's preset dictionary is written into a buffer kept per dictionary; a context
    // longer than its room (a huge id) takes a buffer of its own, and leaves the kept one
    // as the next record needs it.
    const shared = sharedTexts(db.sqlite);
    expect(shared.dictionary).not.toBeNull();
    const contextOf = (id: string): RecordContext => ({
      id,
      itemId: `${id}-item`,
      createdAtUs: 1_700_000_000_000_000,
      updatedAtUs: 1_700_000_000_000_001,
      datetimeUs: 1_600_000_000_000_000,
      geometry: null,
    });
    const textOf = (id: string) =>
      JSON.stringify({ id, details: { id: `${id}-item`, properties: { gsd: 0.5 } } });
    for (const id of ['short-before', 'x'.repeat(20_000), 'short-after', 'é'.repeat(6_000)]) {
      const blob = packRecord(textOf(id), [], contextOf(id), shared);
      expect(unpackRecord(blob, contextOf(id), shared)).toBe(textOf(id));
    }
    const first = packRecord(textOf('a'), [], contextOf('a'), shared);
    packRecord(textOf('y'.repeat(20_000)), [], contextOf('y'.repeat(20_000)), shared);
    expect(unpackRecord(first, contextOf('a'), shared)).toBe(textOf('a'));
    expect(() => unpackRecord(first, contextOf('b'), shared)).toThrow('does not match its row');
  });

  it('packs a text holding a raw control character without markers, exactly', () => {
    const shared = sharedTexts(db.sqlite);
    const context: RecordContext = {
      id: 'record-0123456789',
      itemId: '',
      createdAtUs: 0,
      updatedAtUs: 0,
      datetimeUs: null,
      geometry: null,
    };
    const text = `{"id":"record-0123456789","a":"\x01 1\x02","w":${JSON.stringify(wkt(5))}}`;
    const blob = packRecord(text, [JSON.stringify(wkt(5))], context, shared);
    expect(blob[0]).toBe(0);
    expect(unpackRecord(blob, context, shared)).toBe(text);
    // The context is part of the code: another row's columns do not decode it.
    expect(() => unpackRecord(blob, { ...context, id: 'record-9876543210' }, shared)).toThrow(
      /does not match its row/,
    );
  });

  it('fails loudly when the shared texts a blob names are gone', () => {
    forgetCatalogShared(db.sqlite);
    expect(() => reader.byId('org', 'wkt-7')).toThrow(/catalog_shared has no row/);
  });
});
