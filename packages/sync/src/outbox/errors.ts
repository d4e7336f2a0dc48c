/** Errors the outbox API throws to its caller (never stored). */

export interface FieldProblem {
  readonly path: string;
  readonly message: string;
  /**
   * An input that would pass instead, for the caller to apply: for an order whose archive
   * item mixes satellites, its `order_items` with that item split one per satellite.
   */
  readonly fix?: { readonly order_items: readonly unknown[] } | undefined;
}

/** The input does not pass the request schema, or names a local id it cannot use. Nothing was queued. */
export class OutboxInputError extends Error {
  readonly details: FieldProblem[];
  constructor(message: string, details: FieldProblem[]) {
    super(`${message}: ${details.map((d) => `${d.path || '(root)'}: ${d.message}`).join('; ')}`);
    this.name = 'OutboxInputError';
    this.details = details;
  }
}

/** The operation does not apply to the entry in its current state (or the entry is unknown). */
export class OutboxStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboxStateError';
  }
}

/** What is stored in `last_error`: the service's answer, or the transport failure. */
export interface StoredError {
  readonly kind: string;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly message: string;
  readonly details?: FieldProblem[] | undefined;
  /**
   * The attempt may have created the resource (lost answer, timeout, 502/503/504, crash while
   * sending, 2xx without a usable id): never resent blindly (see `in-doubt.ts`).
   */
  readonly inDoubt?: boolean | undefined;
  /** When that attempt left, µs since the epoch. */
  readonly attemptedAt?: number | undefined;
  /**
   * The service answered 409 "a request with this key is still being processed": an attempt is
   * running there. Resent later with the same key (the service tracks it), whatever is known of
   * its honouring the key: the answer is then the one of that attempt.
   */
  readonly keyInProgress?: boolean | undefined;
  /** The created resource's id as the answer or the lookup suggests it, for the user to accept. */
  readonly candidateId?: string | undefined;
}
