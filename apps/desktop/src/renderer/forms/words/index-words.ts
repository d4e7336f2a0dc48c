/**
 * The custom index form's words alone (no form logic, no schemas): what the Outbox screen needs
 * to say a refused index's problems in the form's labels (outbox/refusal-words.ts).
 * features/indices/index-form.ts uses them.
 */
import { formWords } from '../form-words';

/** The custom index form's fields (features/indices/index-form.ts), in the request's names. */
export const INDEX_FIELDS = [
  'name',
  'description',
  'satellite_id',
  'expression',
  'expression_type',
  'rescale',
  'colormap',
] as const;

export type IndexField = (typeof INDEX_FIELDS)[number];

export const indexFieldOf = (path: readonly string[]): IndexField | null =>
  INDEX_FIELDS.includes(path[0] as IndexField) ? (path[0] as IndexField) : null;

/** The index form's labels and messages, in the order it shows its fields. */
export const INDEX_WORDS = formWords<IndexField>({
  fieldOf: indexFieldOf,
  fields: {
    name: { label: 'Name', required: 'Enter a name' },
    description: { label: 'Description' },
    satellite_id: { label: 'Satellite', required: 'Choose a satellite' },
    expression_type: { label: 'Expression type' },
    expression: {
      label: 'Expression',
      required: 'Enter an expression, e.g. (B08 - B04) / (B08 + B04)',
    },
    rescale: { label: 'Rescale', required: 'Enter the rescale range, e.g. -1, 1' },
    colormap: { label: 'Colormap', required: 'Choose a colormap' },
  },
  messages: [[/^rescale values are integers$/, 'Rescale values are whole numbers']],
});
