/**
 * `codec.isValid(s)` must be exactly `codec.tryParse(s).ok` (it is the allocation-free check the
 * response schemas use), and the schemas built on it must report tryParse's message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssetDate,
  IsoTimestamp,
  MicroTimestamp,
  TaskDate,
  assetDate,
  isoTimestamp,
  microTimestamp,
  taskDate,
} from '../../index';

const codecs = [
  ['isoTimestamp', isoTimestamp, IsoTimestamp, '2024-05-17T09:30:00.123456Z'],
  ['isoTimestamp +00:00', isoTimestamp, IsoTimestamp, '2024-02-29T23:59:59+00:00'],
  ['microTimestamp', microTimestamp, MicroTimestamp, '2024-05-17 09:30:00.123456+00:00'],
  ['taskDate', taskDate, TaskDate, '29-02-2024'],
  ['assetDate', assetDate, AssetDate, '2024-02-29'],
] as const;

/** Strings near a valid sample: characters replaced, dropped or inserted from a layout alphabet. */
const nearby = (sample: string) =>
  fc
    .array(
      fc.record({
        op: fc.constantFrom('set', 'drop', 'insert'),
        at: fc.nat({ max: sample.length }),
        ch: fc.constantFrom(...'0123456789-:T .Z+9١'.split('')),
      }),
      { maxLength: 3 },
    )
    .map((edits) => {
      let s = sample;
      for (const e of edits) {
        const at = Math.min(e.at, s.length);
        if (e.op === 'set') s = s.slice(0, at) + e.ch + s.slice(at + 1);
        else if (e.op === 'drop') s = s.slice(0, at) + s.slice(at + 1);
        else s = s.slice(0, at) + e.ch + s.slice(at);
      }
      return s;
    });

describe.each(codecs)('%s: isValid === tryParse().ok', (_name, codec, schema, sample) => {
  it('on the sample and on strings near it', () => {
    expect(codec.isValid(sample)).toBe(true);
    fc.assert(
      fc.property(nearby(sample), (s) => {
        expect(codec.isValid(s)).toBe(codec.tryParse(s).ok);
      }),
      { numRuns: 3000 },
    );
  });
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(codec.isValid(s)).toBe(codec.tryParse(s).ok);
      }),
    );
  });
  it("the schema accepts what isValid accepts and reports tryParse's message", () => {
    fc.assert(
      fc.property(nearby(sample), (s) => {
        const r = schema.safeParse(s);
        const p = codec.tryParse(s);
        expect(r.success).toBe(p.ok);
        if (!r.success && !p.ok) {
          expect(r.error.issues).toEqual([
            expect.objectContaining({ code: 'custom', path: [], message: p.error.message }),
          ]);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('impossible dates and times are invalid in every layout', () => {
  it.each([
    [isoTimestamp, '2023-02-29T00:00:00Z'],
    [isoTimestamp, '2024-05-17T24:00:00Z'],
    [isoTimestamp, '2024-05-17T23:60:00Z'],
    [isoTimestamp, '2024-05-17T23:59:60Z'],
    [isoTimestamp, '0000-01-01T00:00:00Z'],
    [microTimestamp, '2024-13-01 00:00:00.000000+00:00'],
    [taskDate, '31-04-2024'],
    [assetDate, '2024-00-10'],
  ])('%#: %s', (codec, s) => {
    expect(codec.isValid(s)).toBe(false);
    expect(codec.tryParse(s).ok).toBe(false);
  });
});
