import { describe, expect, it } from 'vitest';
import { DELIVERY_WORDS } from '../../features/deliveries/delivery-form';
import { ITEM_WORDS, itemMessages, orderPathLabel } from '../../features/orders/order-item-draft';
import { emptyDraft } from '../../features/orders/order-item-draft';
import { messagesByField } from '../field-issues';
import { formWords, ordinal } from '../form-words';

describe('a form’s words', () => {
  it('reads an issue path as the form does', () => {
    expect(orderPathLabel(['order_items', '0', 'item_ids', '1'])).toBe(
      'Item 1 › Scenes › 2nd scene',
    );
    expect(orderPathLabel(['order_items', '2'])).toBe('Item 3');
    expect(orderPathLabel(['order_items', '1', 'cloud_delivery', 'path'])).toBe(
      'Item 2 › Cloud delivery › Path',
    );
    expect(DELIVERY_WORDS.pathLabel(['deliveries', '1', 'catalog_ids', '0'])).toBe(
      '2nd request › Records › 1st record',
    );
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
    ]);
  });

  it('says what to do instead of naming API fields', () => {
    expect(ITEM_WORDS.say({ path: 'project_id', message: 'project_id is required' })).toBe(
      'Choose a project',
    );
    expect(
      DELIVERY_WORDS.say({
        path: 'deliveries.0.order_item_ids',
        message: 'give catalog_ids or order_item_ids, not both',
      }),
    ).toBe('Pick records or order items, not both');
    // A message the form has no words for still names no API field.
    expect(ITEM_WORDS.say({ path: 'bandset', message: 'bandset_id is not known' })).toBe(
      'Bandset is not known',
    );
  });

  it('places the service’s refusal of an order on its item’s fields, naming the scene', () => {
    const d = { ...emptyDraft('archive'), itemIds: 'S1\nS2' };
    expect(
      itemMessages(d, [{ path: 'item_ids.1', message: 'no archive scene has this id' }]),
    ).toEqual({ item_ids: 'S2: No archive scene has this id' });
  });

  it('puts what no field takes under the form, with its path in words', () => {
    const words = formWords<'name'>({
      fieldOf: (p) => (p[0] === 'name' ? 'name' : null),
      fields: { name: { label: 'Name', required: 'Enter a name' } },
      names: { item_ids: 'Scenes' },
      elements: { item_ids: 'scene' },
    });
    expect(
      messagesByField(
        [
          { path: 'name', message: 'name is required' },
          { path: 'item_ids.0', message: 'unknown scene' },
        ],
        words,
      ),
    ).toEqual({ name: 'Enter a name', form: 'Scenes › 1st scene: Unknown scene' });
    expect(words.isRequired('name')).toBe(true);
  });
});
