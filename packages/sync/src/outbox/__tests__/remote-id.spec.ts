/** What an outbox entry keeps as the id of what it created, from answers good and broken. */
import { describe, expect, it } from 'vitest';
import { deliveryIdsOf, remoteIdOf } from '../kinds';

describe('remote ids', () => {
  it("a delivery create's ids, in the answer's order; shown joined, read from the answer", () => {
    const answer = { deliveries: [{ delivery_id: 'dlv-b' }, { delivery_id: 'dlv-a,odd' }] };
    expect(deliveryIdsOf(answer)).toEqual(['dlv-b', 'dlv-a,odd']);
    expect(remoteIdOf('delivery', answer)).toBe('dlv-b,dlv-a,odd');
  });

  it('a delivery shown without a usable id is not named (was the text "undefined")', () => {
    const answer = {
      deliveries: [{ status: 'PENDING' }, { delivery_id: 7 }, { delivery_id: '' }, null, 'x'],
    };
    expect(deliveryIdsOf(answer)).toEqual([]);
    expect(remoteIdOf('delivery', answer)).toBeNull();
    const partly = { deliveries: [{ status: 'PENDING' }, { delivery_id: 'dlv-1' }] };
    expect(remoteIdOf('delivery', partly)).toBe('dlv-1');
    for (const broken of [null, {}, { deliveries: 'dlv-1' }, []]) {
      expect(deliveryIdsOf(broken)).toEqual([]);
      expect(remoteIdOf('delivery', broken)).toBeNull();
    }
  });

  it('the other kinds: their own id field, a string', () => {
    expect(remoteIdOf('aoi', { aoi_id: 'aoi-1', id: 'x' })).toBe('aoi-1');
    expect(remoteIdOf('order', { id: 'ord-1' })).toBe('ord-1');
    expect(remoteIdOf('order', { id: 12 })).toBeNull();
  });
});
