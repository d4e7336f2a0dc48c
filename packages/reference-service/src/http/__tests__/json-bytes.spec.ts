import { describe, expect, it } from 'vitest';
import { JsonParts, joinedJsonBytes } from '../json-bytes';

const plain = (open: string, texts: string[], close: string) =>
  Buffer.from(open + texts.join(',') + close, 'utf8');

describe('joinedJsonBytes', () => {
  it('is the UTF-8 of the joined text, for ASCII and multi-byte texts', () => {
    const texts = [
      '{"id":"a","title":"Lake Naivasha"}',
      '{"id":"b","title":"Camargue — été","note":"日本語 🚀"}',
      '{"id":"c","s":"\\u0000 escaped"}',
    ];
    const open = '{"catalogs":[';
    const close = '],"pagination":{"limit":3,"offset":0,"total":3}}';
    const bytes = joinedJsonBytes(open, texts, close);
    expect(bytes.equals(plain(open, texts, close))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).catalogs.map((c: { id: string }) => c.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('writes one text without a comma, and none as the brackets alone', () => {
    expect(joinedJsonBytes('[', ['{"a":1}'], ']').toString()).toBe('[{"a":1}]');
    expect(joinedJsonBytes('{"x":[', [], ']}').toString()).toBe('{"x":[]}');
  });

  it('copies stored bytes as they are, beside texts', () => {
    const stored = Buffer.from('{"id":"o1","name":"Été"}');
    // A view into a larger buffer: only its own bytes are copied.
    const view = Buffer.from('xx{"id":"o2"}yy').subarray(2, 13);
    const bytes = joinedJsonBytes('{"orders":[', [stored, view, '{"id":"o3"}'], ']}');
    expect(bytes.toString('utf8')).toBe(
      '{"orders":[{"id":"o1","name":"Été"},{"id":"o2"},{"id":"o3"}]}',
    );
  });

  it('keeps a lone surrogate as the plain encoding does (U+FFFD)', () => {
    const texts = ['"\ud800"', '"ok"'];
    expect(joinedJsonBytes('[', texts, ']').equals(plain('[', texts, ']'))).toBe(true);
  });

  it('writes into a larger lent Buffer, and the body is exactly its own bytes', () => {
    const texts = ['{"id":"a","name":"Été"}', '{"id":"b"}'];
    const lent = Buffer.alloc(1024, 0x7a);
    const parts = new JsonParts(
      '{"orders":[',
      texts,
      ']}',
      texts.map((t) => Buffer.byteLength(t)),
    );
    const body = parts.bytes((n) => {
      expect(n).toBe(plain('{"orders":[', texts, ']}').length);
      return lent;
    });
    expect(body.buffer).toBe(lent.buffer);
    expect(body.equals(plain('{"orders":[', texts, ']}'))).toBe(true);
    expect(parts.bytes().equals(body)).toBe(true);
  });

  it('refuses to send a body shorter than its sizes say', () => {
    // '"Été"' is 7 bytes in UTF-8, not 9: two bytes of the body would be old memory.
    expect(() => new JsonParts('[', ['"Été"'], ']', [9]).bytes()).toThrow(/wrote 9 of 11 bytes/);
  });
});
