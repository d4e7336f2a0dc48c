/**
 * The visualization form's words alone (no form logic, no schemas): what the Outbox screen
 * needs to say a refused visualization's problems in the form's labels
 * (outbox/refusal-words.ts). features/indices/visualization-form.ts uses them.
 */
import { formWords } from '../form-words';

/** The visualization form's fields (features/indices/visualization-form.ts). */
export type VisualizationField = 'aoiId' | 'indexId' | 'assetIds';

const FIELD_OF_PATH: Record<string, VisualizationField> = {
  aoi_id: 'aoiId',
  index_id: 'indexId',
  src_asset_ids: 'assetIds',
};

export const visualizationFieldOf = (path: readonly string[]): VisualizationField | null =>
  FIELD_OF_PATH[path[0] ?? ''] ?? null;

/** The visualization form's labels and messages (`aoi_id`, `index_id`, `src_asset_ids`). */
export const VISUALIZATION_WORDS = formWords<VisualizationField>({
  fieldOf: visualizationFieldOf,
  fields: {
    aoiId: { label: 'AOI', required: 'Choose an AOI' },
    indexId: { label: 'Index', required: 'Choose an index' },
    assetIds: { label: 'Source scenes', required: 'Choose at least one scene asset' },
  },
  names: { src_asset_ids: 'Source scenes' },
  elements: { src_asset_ids: 'scene' },
});
