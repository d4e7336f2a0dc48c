/** The outbox of queued creates. */
export {
  createOutbox,
  type FlushOptions,
  type FlushProgress,
  type MirrorWriter,
  type Outbox,
  type OutboxOptions,
} from './outbox';
export {
  deliveryIdsOf,
  OUTBOX_KINDS,
  PAID_KINDS,
  type OutboxInput,
  type OutboxKind,
} from './kinds';
export { OUTBOX_STATES, type OutboxEntry, type OutboxState } from './store';
export { OutboxInputError, OutboxStateError, type FieldProblem, type StoredError } from './errors';
export { LOCAL_PREFIX, SCENES_PART } from './references';
export type { HandoverExport, HandoverOptions, HandoverReceipt, PriceWhenQueued } from './handover';
