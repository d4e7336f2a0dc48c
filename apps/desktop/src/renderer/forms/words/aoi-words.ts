/**
 * The AOI form's words alone (no form logic, no schemas): what the Outbox screen needs to say a
 * refused AOI's problems in the form's labels (outbox/refusal-words.ts). features/aois/
 * aoi-form-store.ts uses them.
 */
import { formWords } from '../form-words';

export type AoiField =
  | 'name'
  | 'description'
  | 'satellite_id'
  | 'provider'
  | 'project_id'
  | 'geometry'
  | 'item_ids'
  | 'form';

const FIELDS = new Set<string>([
  'name',
  'description',
  'satellite_id',
  'provider',
  'project_id',
  'geometry',
  'item_ids',
]);

export function fieldOfAoiPath(path: readonly string[]): AoiField | null {
  const head = path[0] ?? '';
  return FIELDS.has(head) ? (head as AoiField) : null;
}

export type AoiInputField = Exclude<AoiField, 'form'>;

/** The AOI form's labels and messages, in the order it shows its fields. */
export const AOI_WORDS = formWords<AoiInputField>({
  fieldOf: (path) => fieldOfAoiPath(path) as AoiInputField | null,
  fields: {
    name: { label: 'Name', required: 'Enter a name' },
    description: { label: 'Description' },
    satellite_id: { label: 'Satellite', required: 'Choose a satellite' },
    provider: { label: 'Provider', required: 'Enter the provider' },
    project_id: { label: 'Project', required: 'Choose a project' },
    geometry: {
      label: 'Area',
      required: 'Draw the area on the map or import a file',
    },
    item_ids: {
      label: 'Archive scene ids',
      required: 'Add at least one archive scene (one id per line, or from the basket)',
    },
  },
  names: { item_ids: 'Archive scenes' },
  elements: { item_ids: 'scene' },
});
