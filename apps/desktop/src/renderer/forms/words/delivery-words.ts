/**
 * The delivery form's words alone (no form logic, no schemas): what the Outbox screen needs to
 * say a refused delivery's problems in the form's labels (outbox/refusal-words.ts).
 * features/deliveries/delivery-form.ts uses them.
 */
import { formWords } from '../form-words';

/** `source` carries the messages about catalog_ids / order_item_ids. */
export type DeliveryField = 'source' | 'config' | 'path';

export function deliveryFieldOf(path: readonly string[]): DeliveryField | null {
  // deliveries.0.<field>: the form edits the first request; others are kept as they were.
  if (path[0] !== 'deliveries' || path[1] !== '0') return null;
  if (path[2] === 'catalog_ids' || path[2] === 'order_item_ids') return 'source';
  if (path[2] === 'cloud_info') return path[3] === 'path' ? 'path' : 'config';
  return null;
}

/** The delivery form's labels and messages (`deliveries.0.catalog_ids`, `cloud_info`...). */
export const DELIVERY_WORDS = formWords<DeliveryField>({
  fieldOf: deliveryFieldOf,
  fields: {
    source: { label: 'What to deliver', required: 'Choose records or order items to deliver' },
    config: { label: 'Cloud location configuration', required: 'Enter the cloud location' },
    path: { label: 'Path in that location', required: 'Enter a path in that location' },
  },
  names: {
    deliveries: '',
    catalog_ids: 'Records',
    order_item_ids: 'Order items',
    cloud_info: 'Cloud location',
    config: 'Configuration',
    path: 'Path',
  },
  elements: { deliveries: 'request', catalog_ids: 'record', order_item_ids: 'order item' },
  messages: [
    [/^give catalog_ids or order_item_ids, not both$/, 'Pick records or order items, not both'],
    [
      /^give exactly one of catalog_ids or order_item_ids.*$/,
      'Choose records or order items to deliver',
    ],
  ],
});
