/**
 * The visualization form as data: an AOI (a mirrored one, or a queued one by local id), an
 * index (likewise) and the source assets. A queued AOI has no assets yet: its sources are "all
 * its scene assets once it is created" (`local:<id>#scenes`). Checked with the domain's
 * `CreateVisualizationCall`.
 */
import { CreateVisualizationCall } from '@eo/domain';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import {
  VISUALIZATION_WORDS,
  type VisualizationField,
} from '../../forms/words/visualization-words';
import { isLocalRef } from '../../stores/local-ids';

export interface VisualizationForm extends Record<VisualizationField, unknown> {
  aoiId: string;
  indexId: string;
  /** Chosen scene assets of a mirrored AOI (ignored for a queued AOI). */
  assetIds: string[];
}

export type { VisualizationField } from '../../forms/words/visualization-words';
export { VISUALIZATION_WORDS } from '../../forms/words/visualization-words';

/** The id of each field's control in VisualizationForm.vue. */
export const VISUALIZATION_CONTROLS: Record<VisualizationField, string> = {
  aoiId: 'vis-aoi',
  indexId: 'vis-index',
  assetIds: 'vis-sources',
};

export function emptyVisualizationForm(): VisualizationForm {
  return { aoiId: '', indexId: '', assetIds: [] };
}

export function visualizationFormFromInput(input: Record<string, unknown>): VisualizationForm {
  const aoiId = typeof input['aoi_id'] === 'string' ? input['aoi_id'] : '';
  const sources = Array.isArray(input['src_asset_ids'])
    ? input['src_asset_ids'].filter((x): x is string => typeof x === 'string')
    : [];
  return {
    aoiId,
    indexId: typeof input['index_id'] === 'string' ? input['index_id'] : '',
    assetIds: isLocalRef(aoiId) ? [] : sources,
  };
}

export function visualizationInput(form: VisualizationForm): CreateVisualizationCall {
  return {
    aoi_id: form.aoiId,
    index_id: form.indexId,
    src_asset_ids: isLocalRef(form.aoiId) ? [`${form.aoiId}#scenes`] : form.assetIds,
  };
}

/**
 * An index made for another satellite than the AOI's: the service refuses the visualization
 * (issue 26, defect 3), so it is the index's error. Null when either satellite is not known.
 */
export function satelliteMismatch(
  aoiSatellite: string | null,
  indexSatellite: string | null,
): string | null {
  return aoiSatellite && indexSatellite && aoiSatellite !== indexSatellite
    ? `This index is made for ${indexSatellite} and the AOI's satellite is ${aoiSatellite}: choose an index of ${aoiSatellite}.`
    : null;
}

export function checkVisualizationForm(
  form: VisualizationForm,
  satelliteOf: (id: string, kind: 'aoi' | 'index') => string | null = () => null,
): {
  errors: Partial<Record<VisualizationField | 'form', string>>;
  payload: CreateVisualizationCall | null;
} {
  const parsed = CreateVisualizationCall.safeParse(visualizationInput(form));
  const mismatch =
    form.aoiId && form.indexId
      ? satelliteMismatch(satelliteOf(form.aoiId, 'aoi'), satelliteOf(form.indexId, 'index'))
      : null;
  const errors: Partial<Record<VisualizationField | 'form', string>> = parsed.success
    ? {}
    : messagesByField(pathIssues(parsed.error.issues), VISUALIZATION_WORDS);
  if (mismatch) errors.indexId = mismatch;
  return { errors, payload: parsed.success && !mismatch ? parsed.data : null };
}
