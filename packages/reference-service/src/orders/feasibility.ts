/**
 * Feasibility of a tasking window (our model; the spec shows only the three values).
 *
 * A satellite with an off-nadir allowance of θ degrees revisits a point every
 * `REVISIT_DAYS_AT_30 × 30 / max(θ, 3)` days; a pass is usable when the sky is clearer than
 * the requested cloud cover c, with probability c / 100. Over the part of a window that is
 * still ahead (from now), the expected number of usable acquisitions is
 *
 *   expected = remaining_days / revisit_days × c / 100
 *
 * SUCCESS when expected >= 2, WEAK_SUCCESS when >= 0.5, FAILED below (or when the window is
 * over). A recurring item takes the worst of its windows. Archive items are always SUCCESS:
 * the image exists.
 */
import type { FeasibilityStatus, Instant } from '@eo/domain';
import type { Satellite } from '../reference/catalog';
import type { Window } from './occurrences';

const DAY_US = 86_400_000_000;

/** Days between passes over a point at a 30° off-nadir allowance, per constellation. */
export const REVISIT_DAYS_AT_30: Readonly<Record<string, number>> = { aurora: 1, kestrel: 2 };
const DEFAULT_REVISIT_DAYS = 3;

export const SUCCESS_AT = 2;
export const WEAK_SUCCESS_AT = 0.5;

/** Defaults applied to tasking items that do not say (shown back on the item). */
export const DEFAULT_TASKING_CLOUD_COVER = 20;
export const DEFAULT_TASKING_OFF_NADIR = 30;

export function revisitDays(satellite: Satellite, offNadir: number): number {
  const base = REVISIT_DAYS_AT_30[satellite.constellation] ?? DEFAULT_REVISIT_DAYS;
  return (base * 30) / Math.max(offNadir, 3);
}

export function expectedAcquisitions(
  w: Window,
  now: Instant,
  satellite: Satellite,
  cloudCover: number,
  offNadir: number,
): number {
  const remainingDays = Math.max(0, w.end - Math.max(w.start, now)) / DAY_US;
  return (remainingDays / revisitDays(satellite, offNadir)) * (cloudCover / 100);
}

export function feasibilityOf(expected: number): FeasibilityStatus {
  if (expected >= SUCCESS_AT) return 'SUCCESS';
  if (expected >= WEAK_SUCCESS_AT) return 'WEAK_SUCCESS';
  return 'FAILED';
}

const RANK: Record<FeasibilityStatus, number> = { FAILED: 0, WEAK_SUCCESS: 1, SUCCESS: 2 };
export const worstFeasibility = (a: FeasibilityStatus, b: FeasibilityStatus): FeasibilityStatus =>
  RANK[a] <= RANK[b] ? a : b;
