/**
 * The custom-index form as data: its fields as typed, how they become the domain's
 * `CreateIndexRequest`, and everything wrong with them, checked as the user types. The
 * expression is checked by the domain's own parser (`checkExpression`: syntax with the
 * position of the problem, the number of components its type needs, bands the satellite has).
 * An unknown satellite is only a warning, the service decides. A satellite's bands are the
 * service's own list when it has one (`GET /v0/satellites`, mirrored at sync): a band not in it
 * is an error. Without that list the bands are guessed from mirrored indices and AOIs, so a band
 * not among them is only a warning (B05 of sat-aurora-1 is real even when no index used it yet).
 */
import {
  checkExpression,
  CreateIndexRequest,
  EXPRESSION_TYPES,
  type ExpressionProblem,
  type ExpressionType,
} from '@eo/domain';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import { NO_KNOWN_IDS, unknownIdError, type KnownIds } from '../../forms/known-ids';
import { INDEX_WORDS, type IndexField } from '../../forms/words/index-words';

export interface IndexForm extends Record<IndexField, string> {
  name: string;
  description: string;
  satellite_id: string;
  expression: string;
  expression_type: ExpressionType;
  /** Integers separated by commas or spaces, e.g. "-1, 1". */
  rescale: string;
  colormap: string;
}

export type { IndexField } from '../../forms/words/index-words';
export { INDEX_WORDS } from '../../forms/words/index-words';

/** The id of each field's control in CustomIndexForm.vue. */
export const INDEX_CONTROLS: Record<IndexField, string> = {
  name: 'idx-name',
  description: 'idx-description',
  satellite_id: 'idx-satellite_id',
  expression_type: 'idx-expression_type',
  expression: 'idx-expression',
  rescale: 'idx-rescale',
  colormap: 'idx-colormap',
};

export function emptyIndexForm(): IndexForm {
  return {
    name: '',
    description: '',
    satellite_id: '',
    expression: '',
    expression_type: 'index',
    rescale: '',
    colormap: '',
  };
}

/** A queued index's input back into the form (editing from the outbox). */
export function indexFormFromInput(input: Record<string, unknown>): IndexForm {
  const str = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  const type = input['expression_type'];
  return {
    name: str('name'),
    description: str('description'),
    satellite_id: str('satellite_id'),
    expression: str('expression'),
    expression_type: EXPRESSION_TYPES.includes(type as ExpressionType)
      ? (type as ExpressionType)
      : 'index',
    rescale: Array.isArray(input['rescale']) ? input['rescale'].join(', ') : '',
    colormap: str('colormap'),
  };
}

export interface IndexCheck {
  readonly errors: Partial<Record<IndexField | 'form', string>>;
  readonly warnings: Partial<Record<IndexField, string>>;
  /** Every problem of the expression (the first syntax error carries its position). */
  readonly expressionProblems: ExpressionProblem[];
  /** Bands the expression uses, in order of first use. */
  readonly bands: string[];
  /** The satellite's known bands; null when the satellite is not known here. */
  readonly satelliteBands: readonly string[] | null;
  /** Whether `satelliteBands` is the service's list (else bands seen in mirrored records). */
  readonly bandsListed: boolean;
  /** The request to queue, when nothing is wrong. */
  readonly payload: CreateIndexRequest | null;
}

function parseRescale(text: string): { values: number[]; error: string | null } {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  const values: number[] = [];
  for (const p of parts) {
    const n = Number(p);
    if (!Number.isFinite(n)) return { values, error: `“${p}” is not a number` };
    values.push(n);
  }
  return { values, error: null };
}

/** What the form knows of a satellite: its bands, and whether they are the service's list. */
export interface KnownSatellite {
  readonly bands: readonly string[];
  readonly bandsListed: boolean;
}

export function checkIndexForm(
  form: IndexForm,
  satelliteOf: (satelliteId: string) => KnownSatellite | null,
  knownSatellites: readonly string[],
  knownIds: KnownIds = NO_KNOWN_IDS,
): IndexCheck {
  const satellite = form.satellite_id.trim();
  const known = satellite ? satelliteOf(satellite) : null;
  const satelliteBands = known?.bands ?? null;
  const bandsListed = known?.bandsListed ?? false;
  const warnings: IndexCheck['warnings'] = {};
  // A satellite outside the service's own list fails on send: an error, with the nearest ones.
  const unknownSatellite = unknownIdError('satellite', satellite, knownIds);
  if (satellite && satelliteBands === null && !unknownSatellite) {
    warnings.satellite_id =
      knownSatellites.length > 0
        ? `${satellite} is not among the satellites seen here (${knownSatellites.join(', ')}): its bands cannot be checked, the service decides.`
        : `No satellites are known here yet: the bands cannot be checked, the service decides.`;
  }

  // Only the service's own list may refuse a band; guessed bands are checked as a warning.
  const expression = form.expression.trim()
    ? checkExpression(
        form.expression,
        form.expression_type,
        bandsListed ? (satelliteBands ?? undefined) : undefined,
      )
    : { problems: [], bands: [] };
  const unseen =
    known && !bandsListed ? expression.bands.filter((b) => !known.bands.includes(b)) : [];
  if (unseen.length > 0) {
    const seen = known!.bands.length > 0 ? ` (seen: ${known!.bands.join(', ')})` : '';
    warnings.expression = `${unseen.join(', ')} ${unseen.length === 1 ? 'is' : 'are'} not among the bands seen here for ${satellite}${seen}. The service's list of its bands is not known here: it decides.`;
  }

  const rescale = parseRescale(form.rescale);
  const body = {
    name: form.name,
    description: form.description,
    satellite_id: satellite,
    expression: form.expression,
    expression_type: form.expression_type,
    rescale: rescale.values,
    colormap: form.colormap.trim(),
    type: 'custom' as const,
  };
  const parsed = CreateIndexRequest.safeParse(body);
  const errors: IndexCheck['errors'] = parsed.success
    ? {}
    : messagesByField(pathIssues(parsed.error.issues), INDEX_WORDS);
  if (rescale.error) errors.rescale = rescale.error;
  if (unknownSatellite) errors.satellite_id = unknownSatellite;
  if (expression.problems.length > 0) {
    errors.expression = expression.problems.map((p) => p.message).join('. ');
  }
  const ok = parsed.success && Object.keys(errors).length === 0;
  return {
    errors,
    warnings,
    expressionProblems: expression.problems,
    bands: expression.bands,
    satelliteBands,
    bandsListed,
    payload: ok ? parsed.data : null,
  };
}
