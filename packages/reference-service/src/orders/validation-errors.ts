/**
 * Items of an order item's `validation_errors` (structure not shown by the spec; ours is
 * `{ code, field, message }`, `field` relative to the order item). They report problems that
 * do not reject the order: the order is created and the client decides.
 */
export const VALIDATION_CODES = [
  /** ARCHIVE: the scenes together do not cover every vertex of the geometry. */
  'GEOMETRY_NOT_COVERED',
  /** ARCHIVE: a scene does not touch the geometry at all. */
  'SCENE_OUTSIDE_GEOMETRY',
  /** ARCHIVE: a scene is cloudier than the item's cloud_cover. */
  'SCENE_CLOUD_COVER_ABOVE_LIMIT',
  /** ARCHIVE: a scene was taken further off-nadir than the item's off_nadir. */
  'SCENE_OFF_NADIR_ABOVE_LIMIT',
  /** The geometry is smaller than the minimum billable area (it is billed at the minimum). */
  'BELOW_MINIMUM_AREA',
  /** TASKING/RECURRING: off_nadir above 45°: distorted, coarser images. */
  'HIGH_OFF_NADIR',
  /** TASKING/RECURRING: an acquisition window shorter than 3 days. */
  'SHORT_WINDOW',
  /** TASKING/RECURRING: the window started before the order; only what is left counts. */
  'WINDOW_STARTS_IN_PAST',
  /** TASKING/RECURRING: a window is already over (the item is infeasible). */
  'WINDOW_IN_PAST',
  /** Feasibility WEAK_SUCCESS: few acquisition chances expected. */
  'WEAK_FEASIBILITY',
  /** Feasibility FAILED: the item will fail and be refunded once paid. */
  'INFEASIBLE',
  /** RECURRING: the occurrences end before end_date. */
  'OCCURRENCES_END_BEFORE_END_DATE',
] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

export interface ValidationNote {
  readonly code: ValidationCode;
  readonly field: string;
  readonly message: string;
}

export const SHORT_WINDOW_DAYS = 3;
export const HIGH_OFF_NADIR_DEG = 45;
