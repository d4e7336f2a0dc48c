/**
 * What the Outbox screen says about an entry, in words: why it failed (the service's message
 * and field details), why it is blocked (the dependency that stopped it), what happened to its
 * last attempt. Pure functions over the contract's entry view.
 */
import { WAITING_KIND, type OutboxEntryView, type OutboxError } from '../../../shared/contract';
import { refusalLine } from './refusal-words';
import { OUTBOX_KIND_LABEL } from '../../format/statuses';

export interface EntryProblem {
  /** One sentence. */
  readonly text: string;
  /** The service's field details, one line each, in the form's words ("Item 1 › Name: Enter a name"). */
  readonly details: string[];
}

const STOPPED: Record<string, string> = {
  failed: 'failed',
  blocked: 'is blocked',
  cancelled: 'was cancelled',
  unconfirmed: 'is unconfirmed (it may already be on the service)',
};

function refusal(err: OutboxError): string {
  const why = [err.status ? `HTTP ${err.status}` : null, err.code ?? null].filter(Boolean);
  return `The service refused it${why.length ? ` (${why.join(', ')})` : ''}: ${err.message}`;
}

/** Why a failed, blocked or retried entry is where it is; null when there is nothing to say. */
export function entryProblem(
  entry: OutboxEntryView,
  dependencies: ReadonlyArray<OutboxEntryView | undefined>,
): EntryProblem | null {
  const err = entry.lastError;
  const details = (err?.details ?? []).map((d) => refusalLine(entry.kind, d));
  switch (entry.state) {
    case 'failed':
      return { text: err ? refusal(err) : 'The service refused it.', details };
    case 'blocked': {
      const stuck = dependencies.filter(
        (d): d is OutboxEntryView => d !== undefined && d.state in STOPPED,
      );
      const text =
        stuck.length > 0
          ? `Not sent because ${stuck.map((d) => `“${d.summary}” ${STOPPED[d.state]}`).join(' and ')}. Fix or retry that first, or edit this entry.`
          : (err?.message ?? 'Something it depends on could not be sent.');
      return { text, details };
    }
    case 'unconfirmed':
      return {
        text: `The service never said whether it created this${err ? ` (${err.message})` : ''}. Check the service: if it is there, say it was created; if not, send it again.`,
        details,
      };
    case 'handed_over':
      return {
        text: 'Handed over to another laptop, which sends it. It is never sent from here; it shows as sent once found on the service or once that laptop’s receipt is opened here.',
        details,
      };
    case 'queued':
    case 'sending':
      if (!err) return null;
      // Not a failure: it goes by itself once the service has finished what it needs.
      if (err.kind === WAITING_KIND)
        return { text: `Waiting before it is sent: ${err.message}. It goes by itself.`, details };
      return {
        text:
          err.status === undefined
            ? `The last attempt did not reach the service (${err.message}). It is tried again automatically.`
            : `The last attempt got a temporary error (HTTP ${err.status}): ${err.message}. It is tried again automatically.`,
        details,
      };
    default:
      return null;
  }
}

/**
 * The summary without the kind it starts with ("AOI · North field" -> "North field"): the card
 * shows the kind beside it already.
 */
export function summaryWithoutKind(entry: Pick<OutboxEntryView, 'kind' | 'summary'>): string {
  const prefix = `${OUTBOX_KIND_LABEL[entry.kind]} · `;
  return entry.summary.startsWith(prefix) ? entry.summary.slice(prefix.length) : entry.summary;
}

/** What needs doing first comes first: failed, blocked and unconfirmed, then waiting, then done. */
const RANK: Record<OutboxEntryView['state'], number> = {
  failed: 0,
  blocked: 0,
  unconfirmed: 0,
  queued: 1,
  sending: 1,
  // In another laptop's hands: nothing to do here, but not done either.
  handed_over: 1,
  sent: 2,
  cancelled: 2,
};

/** Needing attention, then waiting (both in send order), then done (latest first). */
export function byUrgency(entries: readonly OutboxEntryView[]): OutboxEntryView[] {
  return [...entries].sort((a, b) => {
    const r = RANK[a.state] - RANK[b.state];
    if (r !== 0) return r;
    return RANK[a.state] === 2 ? b.seq - a.seq : a.seq - b.seq;
  });
}
