/**
 * When a pass may say it has the whole list: the service ended the list (its total reached, an
 * empty or short page), the distinct ids it brought cover the service's total (records listed
 * twice count once), and the total did not fall while the list was read (a record deleted
 * behind the pass shifts a later one onto a page already read: that record is on no page, the
 * deleted one was read). Anything else is `incomplete`: the pass sweeps nothing and says why.
 *
 * Offset paging over a list that moves cannot be exact by itself; what makes it so is asking the
 * service again where it can be asked: records changed since the pass began (a time window,
 * `engine.ts`), and, before a sweep, the records the pass did not see, by id.
 */
import type { PassEnd } from '@eo/api-client';

/** What one list of a pass brought, for the verdict. */
export interface ListReport {
  /** Why the pager ended the list; undefined when the list was skipped (an AOI gone since). */
  readonly end: PassEnd | undefined;
  /** Records the pages held (a record listed twice counted twice). */
  readonly records: number;
  /**
   * Distinct ids the list brought (and the checks after it found); null when a resumed list
   * cannot tell its earlier ids from another list's (judged by `records` then).
   */
  readonly distinct: number | null;
  /** Records that came again within the list. */
  readonly repeats: number;
  /** The service's total on the list's last page, when it gave one. */
  readonly total: number | null;
  /** The total fell between two pages: from, to. */
  readonly shrank: { readonly from: number; readonly to: number } | null;
}

/** Why the list is not known whole; null when it is. */
export function listProblem(r: ListReport): string | null {
  if (r.end === 'page-cap') return 'the pager stopped at its page cap with more to read';
  if (r.end === 'repeated') return 'the service answered the same page twice';
  if (r.shrank)
    return `the service's count fell from ${r.shrank.from} to ${r.shrank.to} while the list was read, so the list changed while it was read: a record read may be gone and another on no page`;
  if (r.total === null) return null;
  const have = r.distinct ?? r.records;
  if (have === r.total) return null;
  const twice = r.repeats > 0 ? `, ${r.repeats} of them more than once` : '';
  return have < r.total
    ? `${have} of the ${r.total} records the service counts were on its pages${twice}: the list changed while it was read, or the service repeated records and skipped others`
    : `${have} records were on its pages but the service counts ${r.total}: the list changed while it was read`;
}

/** A problem a look at the records changed since the pass began may solve (records missing). */
export function missingOnly(r: ListReport): boolean {
  return (
    r.end !== 'page-cap' &&
    r.end !== 'repeated' &&
    r.shrank === null &&
    r.total !== null &&
    r.distinct !== null &&
    r.distinct < r.total
  );
}

/** The message an incomplete pass keeps: which list, what went wrong, what happens next. */
export function incompleteMessage(
  resource: string,
  part: number,
  parts: number,
  problem: string,
): string {
  const which = parts > 1 ? ` (list ${part + 1} of ${parts})` : '';
  return `${resource}${which}: ${problem}; nothing was removed, the next sync reads it again`;
}

/** Follows a list's totals page by page: the last one, and whether it ever fell. */
export class TotalWatch {
  private highest: number | null = null;
  last: number | null = null;
  shrank: { from: number; to: number } | null = null;

  see(total: number | undefined): void {
    if (total === undefined) return;
    if (this.highest !== null && total < this.highest && this.shrank === null)
      this.shrank = { from: this.highest, to: total };
    this.highest = this.highest === null ? total : Math.max(this.highest, total);
    this.last = total;
  }
}
