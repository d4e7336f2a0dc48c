/**
 * Statuses as words with a tone, for badges that never rely on colour alone. The value sets
 * come from @eo/domain; fields the spec leaves open (delivery and job statuses) may hold other
 * values, which are shown as they are.
 */
import type {
  DELIVERY_STATUSES,
  JOB_STATUSES,
  JOB_TASK_STATUSES,
  OutboxKind,
  OutboxState,
  VisualizationStatus,
} from '@eo/domain';

export type Tone = 'ok' | 'warn' | 'bad' | 'idle' | 'busy';

export interface StatusText {
  readonly label: string;
  readonly tone: Tone;
}

export const OUTBOX_STATE_TEXT: Record<OutboxState, StatusText & { hint: string }> = {
  queued: { label: 'Queued', tone: 'idle', hint: 'Waiting to be sent.' },
  sending: { label: 'Sending', tone: 'busy', hint: 'A request may be on its way.' },
  sent: { label: 'Sent', tone: 'ok', hint: 'Created on the service.' },
  failed: {
    label: 'Failed',
    tone: 'bad',
    hint: 'The service refused it. Edit it and it is queued again.',
  },
  blocked: {
    label: 'Blocked',
    tone: 'warn',
    hint: 'Something it depends on failed, is blocked or was cancelled.',
  },
  cancelled: { label: 'Cancelled', tone: 'idle', hint: 'Cancelled: it will not be sent.' },
  unconfirmed: {
    label: 'Unconfirmed',
    tone: 'warn',
    hint: 'It may already be on the service (the answer never came). Check, then confirm it was created, send it again, or cancel.',
  },
  handed_over: {
    label: 'Handed over',
    tone: 'idle',
    hint: 'Written to a file for another laptop, which sends it: never sent from here. It shows as sent once it is found on the service or the other laptop’s receipt is opened here.',
  },
};

/**
 * What an order or AOI still in the outbox says beside its name: waiting, or why it was not
 * created (a refused one is not "queued": the service answered).
 */
export const UNSENT_NOTE: Record<OutboxState, string> = {
  queued: 'queued — not sent yet',
  sending: 'being sent',
  sent: 'sent',
  failed: 'refused by the service — see the Outbox',
  blocked: 'blocked — see the Outbox',
  cancelled: 'cancelled — not sent',
  unconfirmed: 'may already be on the service — see the Outbox',
  handed_over: 'handed over to another laptop',
};

export const OUTBOX_KIND_LABEL: Record<OutboxKind, string> = {
  order: 'Order',
  aoi: 'AOI',
  index: 'Index',
  visualization: 'Visualization',
  delivery: 'Delivery',
  job: 'Job',
};

const DELIVERY_TEXT: Record<(typeof DELIVERY_STATUSES)[number], StatusText> = {
  PENDING: { label: 'Pending', tone: 'idle' },
  IN_PROGRESS: { label: 'In progress', tone: 'busy' },
  SUCCESS: { label: 'Delivered', tone: 'ok' },
  FAILED: { label: 'Failed', tone: 'bad' },
};

const JOB_TEXT: Record<(typeof JOB_STATUSES)[number], StatusText> = {
  QUEUED: { label: 'Queued', tone: 'idle' },
  RUNNING: { label: 'Running', tone: 'busy' },
  SUCCEEDED: { label: 'Succeeded', tone: 'ok' },
  FAILED: { label: 'Failed', tone: 'bad' },
};

const JOB_TASK_TEXT: Record<(typeof JOB_TASK_STATUSES)[number], StatusText> = {
  PENDING: { label: 'Pending', tone: 'idle' },
  RUNNING: { label: 'Running', tone: 'busy' },
  SUCCEEDED: { label: 'Succeeded', tone: 'ok' },
  FAILED: { label: 'Failed', tone: 'bad' },
  SKIPPED: { label: 'Skipped', tone: 'warn' },
};

const VISUALIZATION_TEXT: Record<VisualizationStatus, StatusText> = {
  creating: { label: 'Creating', tone: 'busy' },
  success: { label: 'Done', tone: 'ok' },
  partial_success: { label: 'Partly done', tone: 'warn' },
  failed: { label: 'Failed', tone: 'bad' },
};

function lookup(table: Record<string, StatusText>, status: string | null | undefined): StatusText {
  if (!status) return { label: 'Unknown', tone: 'idle' };
  return table[status] ?? { label: status, tone: 'idle' };
}

export const deliveryStatusText = (s: string | null | undefined) => lookup(DELIVERY_TEXT, s);
export const jobStatusText = (s: string | null | undefined) => lookup(JOB_TEXT, s);
export const jobTaskStatusText = (s: string | null | undefined) => lookup(JOB_TASK_TEXT, s);
export const visualizationStatusText = (s: string | null | undefined) =>
  lookup(VISUALIZATION_TEXT, s);

/** Deliveries end SUCCESS or FAILED; anything else (unknown values too) may still change. */
export function deliveryFinished(status: string | null | undefined): boolean {
  return status === 'SUCCESS' || status === 'FAILED';
}

/** Jobs end SUCCEEDED or FAILED. */
export function jobFinished(status: string | null | undefined): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED';
}

/** Visualizations are unfinished while `creating`. */
export function visualizationFinished(status: string | null | undefined): boolean {
  return status !== 'creating';
}
