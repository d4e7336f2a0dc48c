import { describe, expect, it } from 'vitest';
import {
  bandsetFits,
  firstSceneSharingNoBand,
  orderItemDeliverability,
  sharedBandset,
  splitBySatellite,
} from '../index';

const AURORA = ['B01', 'B02', 'B03', 'B04', 'B08'];
const KESTREL = ['PAN', 'BLUE', 'GREEN', 'RED', 'NIR'];
const BANDSETS = [
  { id: 'rgbn', bands: ['B02', 'B03', 'B04', 'B08'] },
  { id: 'pan', bands: ['PAN'] },
];

describe('archive scenes in one item', () => {
  it('a bandset fits a satellite that has every band of it', () => {
    expect(bandsetFits(['B02', 'B08'], AURORA)).toBe(true);
    expect(bandsetFits(['B02', 'B12'], AURORA)).toBe(false);
  });

  it('finds the bandset every scene offers, none for Aurora with Kestrel', () => {
    expect(sharedBandset(BANDSETS, [AURORA, AURORA])?.id).toBe('rgbn');
    expect(sharedBandset(BANDSETS, [AURORA, KESTREL])).toBeUndefined();
  });

  it('offline: names the first scene that shares no band with those before it', () => {
    expect(firstSceneSharingNoBand([AURORA, AURORA, KESTREL])).toBe(2);
    expect(firstSceneSharingNoBand([AURORA, ['B02'], ['B02', 'PAN']])).toBe(-1);
    expect(firstSceneSharingNoBand([AURORA])).toBe(-1);
  });

  it('splits one item per satellite, in first-seen order', () => {
    const sat: Record<string, string> = { a: 'aurora-1', b: 'kestrel-1', c: 'aurora-1' };
    const split = splitBySatellite({ name: 'Field', item_ids: ['a', 'b', 'c'] }, (id) => sat[id]);
    expect(split).toEqual([
      { name: 'Field (aurora-1)', item_ids: ['a', 'c'] },
      { name: 'Field (kestrel-1)', item_ids: ['b'] },
    ]);
    const one = { name: 'Field', item_ids: ['a', 'c'] };
    expect(splitBySatellite(one, (id) => sat[id])).toEqual([one]);
  });

  it('a bandset stays only with the satellite it fits (issue 26, defect 2)', () => {
    const sat: Record<string, string> = { a: 'aurora-1', b: 'kestrel-1' };
    const bands: Record<string, readonly string[]> = { a: AURORA, b: KESTREL };
    const item = { name: 'Field', item_ids: ['a', 'b'], bandset: { bandset_id: 'rgbn' } };
    const fits = (ids: readonly string[]) =>
      ids.every((id) => bandsetFits(BANDSETS[0]!.bands, bands[id]!));
    expect(splitBySatellite(item, (id) => sat[id], fits)).toEqual([
      { name: 'Field (aurora-1)', item_ids: ['a'], bandset: { bandset_id: 'rgbn' } },
      { name: 'Field (kestrel-1)', item_ids: ['b'] },
    ]);
    // Chosen for Kestrel: it goes with the Kestrel scenes.
    const pan = { ...item, bandset: { bandset_id: 'pan' } };
    const panFits = (ids: readonly string[]) =>
      ids.every((id) => bandsetFits(BANDSETS[1]!.bands, bands[id]!));
    expect(splitBySatellite(pan, (id) => sat[id], panFits)).toEqual([
      { name: 'Field (aurora-1)', item_ids: ['a'] },
      { name: 'Field (kestrel-1)', item_ids: ['b'], bandset: { bandset_id: 'pan' } },
    ]);
    // Nothing known of its bands: with the first item only.
    expect(splitBySatellite(item, (id) => sat[id]).map((i) => 'bandset' in i)).toEqual([
      true,
      false,
    ]);
  });

  it('an order item is deliverable once completed, never once failed', () => {
    expect(orderItemDeliverability('COMPLETED')).toBe('ready');
    expect(orderItemDeliverability('FULFILLED')).toBe('ready');
    expect(orderItemDeliverability('ACTIVE')).toBe('wait');
    expect(orderItemDeliverability(null)).toBe('wait');
    expect(orderItemDeliverability('FAILED')).toBe('never');
  });
});
