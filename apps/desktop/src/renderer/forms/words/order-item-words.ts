/**
 * An order item's words alone (no form logic, no schemas): its error keys, the labels and
 * messages, and an issue path of the whole order in the composer's words. What the Outbox
 * screen needs to say a refused order's problems (outbox/refusal-words.ts);
 * features/orders/order-item-draft.ts uses them.
 */
import { IMPORT_FILE_KINDS } from '../../../shared/contract';
import { formWords } from '../form-words';

/**
 * Error keys of the form's fields: the request's field names (what the domain and the service
 * report), with the cloud delivery pair split in two.
 */
const ITEM_KEYS = [
  'name',
  'project_id',
  'geometry',
  'item_ids',
  'start_date',
  'end_date',
  'recurrence',
  'no_of_occurrences',
  'cloud_cover',
  'off_nadir',
  'bandset',
  'delivery_speed',
  'usecase',
  'cloud_delivery.config',
  'cloud_delivery.path',
] as const;

export type ItemInputKey = (typeof ITEM_KEYS)[number];
/** An error key: a field's, or `form` for what concerns the whole item. */
export type ItemFieldKey = ItemInputKey | 'form';

const SIMPLE_KEYS = new Set<string>(ITEM_KEYS);

/** The form field of an issue path relative to the item (`item_ids.2`, `bandset.bandset_id`). */
export function fieldOfItemPath(path: readonly string[]): ItemFieldKey | null {
  const [head, second] = path;
  if (!head) return null;
  if (head === 'cloud_delivery') {
    return second === 'path' ? 'cloud_delivery.path' : 'cloud_delivery.config';
  }
  return SIMPLE_KEYS.has(head) ? (head as ItemFieldKey) : null;
}

/**
 * An order item's labels and messages, in the order the composer shows its fields. Which are
 * required depends on the item's kind (`itemRequired`); the messages say what to do when they
 * are left empty.
 */
export const ITEM_WORDS = formWords<ItemInputKey>({
  fieldOf: (path) => fieldOfItemPath(path) as ItemInputKey | null,
  fields: {
    name: { label: 'Name', required: 'Enter a name' },
    project_id: { label: 'Project', required: 'Choose a project' },
    geometry: {
      label: 'Area',
      required: `Draw an area, import a file (${IMPORT_FILE_KINDS}) or use the basket`,
    },
    item_ids: { label: 'Archive scene ids', required: 'Add at least one archive scene id' },
    start_date: { label: 'Start', required: 'Choose when it starts' },
    end_date: { label: 'End', required: 'Choose when it ends' },
    recurrence: { label: 'Repeats', required: 'Choose how often it repeats' },
    no_of_occurrences: { label: 'Number of occurrences', required: 'Enter how many times' },
    cloud_cover: { label: 'Cloud cover (%)' },
    off_nadir: { label: 'Off-nadir (°)' },
    bandset: { label: 'Bandset' },
    delivery_speed: { label: 'Delivery speed' },
    usecase: { label: 'Use case', required: 'Choose a use case (this service needs one)' },
    'cloud_delivery.config': { label: 'Cloud delivery config', required: 'Enter the config' },
    'cloud_delivery.path': { label: 'Cloud delivery path', required: 'Enter the path' },
  },
  names: {
    item_ids: 'Scenes',
    start_date: 'start',
    end_date: 'end',
    cloud_delivery: 'Cloud delivery',
    config: 'Config',
    path: 'Path',
    bandset_id: 'Bandset',
  },
  elements: { item_ids: 'scene', features: 'feature' },
  messages: [
    [/^cloud_cover is a percentage <= 100$/, 'Cloud cover is at most 100 %'],
    [/^cloud_cover is a percentage >= 0$/, 'Cloud cover is at least 0 %'],
    [/^off_nadir is degrees <= 60$/, 'Off-nadir is at most 60°'],
    [/^off_nadir is degrees >= 0$/, 'Off-nadir is at least 0°'],
    [/^an archive item \(with item_ids\) cannot recur$/, 'An archive item cannot repeat'],
    [
      /^an archive item \(with item_ids\) has one occurrence$/,
      'An archive item has one occurrence',
    ],
    [
      /^a one-time tasking item has one occurrence.*$/,
      'A one-time item has one occurrence; choose the Recurring kind to repeat it',
    ],
  ],
});

/** An issue path of the whole order in the composer's words: "Item 1 › Scenes › 2nd scene". */
export function orderPathLabel(path: readonly string[]): string {
  const [head, n, ...rest] = path;
  if (head !== 'order_items' || n === undefined || !/^\d+$/.test(n)) {
    return ITEM_WORDS.pathLabel(path);
  }
  const item = `Item ${Number(n) + 1}`;
  return rest.length > 0 ? `${item} › ${ITEM_WORDS.pathLabel(rest)}` : item;
}
