/**
 * Why a record failed, in the service's own words (issue 17, item 4): the reason fields a
 * service sends, or, when it sent none, a sentence that says so (never a blank). Only for a
 * failed or partly failed record; null otherwise.
 *
 * - AOI and visualization: the `description` of their failed assets (our reference service
 *   writes there why a scene could not be produced).
 * - Delivery: `reason`, `message`, `error` or `failure_reason` when present.
 * - Job: its validation errors (`reason`, `err`) and failed tasks (`err_msg`, `state_msg`).
 */

export const NO_REASON = 'The service gave no reason.';

type Loose = Record<string, unknown>;

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
const list = (v: unknown): Loose[] =>
  Array.isArray(v) ? v.filter((x): x is Loose => typeof x === 'object' && x !== null) : [];

/** Failed, partly failed: the statuses that owe an explanation. */
export function isFailedStatus(status: unknown): boolean {
  const s = typeof status === 'string' ? status.toLowerCase() : '';
  return s === 'failed' || s === 'failure' || s === 'error' || s === 'partial_success';
}

function reasons(found: Array<string | null>): string {
  const unique = [...new Set(found.filter((x): x is string => x !== null))];
  return unique.length > 0 ? unique.join('; ') : NO_REASON;
}

const failedAssetReasons = (assets: unknown) =>
  list(assets)
    .filter((a) => isFailedStatus(a['status']))
    .map((a) => text(a['description']));

/** An AOI's, from its assets (those of the mirror's `aois.assets`). */
export function aoiFailureReason(aoi: Loose, assets: readonly unknown[]): string | null {
  return isFailedStatus(aoi['status']) ? reasons(failedAssetReasons(assets)) : null;
}

export function visualizationFailureReason(v: Loose): string | null {
  return isFailedStatus(v['status']) ? reasons(failedAssetReasons(v['assets'])) : null;
}

export function deliveryFailureReason(d: Loose): string | null {
  if (!isFailedStatus(d['status'])) return null;
  return reasons(['reason', 'message', 'error', 'failure_reason'].map((k) => text(d[k])));
}

export function jobFailureReason(j: Loose): string | null {
  if (!isFailedStatus(j['status'])) return null;
  const validation = list(j['val_errors']).map(
    (e) => [text(e['err']), text(e['reason'])].filter(Boolean).join(': ') || null,
  );
  const tasks = list(j['tasks'])
    .filter((t) => isFailedStatus(t['status']))
    .map((t) => text(t['err_msg']) ?? text(t['state_msg']));
  return reasons([...validation, ...tasks]);
}
