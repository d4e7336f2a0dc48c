/**
 * What the client knows about the service, learned from its answers rather than assumed.
 *
 * `idempotencyKey`: `honoured` once a response said `Idempotency-Key-Support: honoured` (our
 * reference service says it on every response), `unknown` until then, `ignored` only when the
 * caller forced it. The transport resends a create that may have reached the service (after a
 * timeout, a network error, a 502/503/504) only when the key is honoured: against a service
 * that ignores it, a resend would create the resource twice.
 */
import {
  IDEMPOTENCY_SUPPORT_HEADER,
  readIdempotencySupport,
  type IdempotencyCapability,
  type IdempotencyPolicy,
} from '@eo/domain';

export interface Capabilities {
  readonly idempotencyKey: IdempotencyCapability;
}

export class CapabilityTracker implements Capabilities {
  private said = false;

  constructor(private readonly policy: IdempotencyPolicy) {}

  get idempotencyKey(): IdempotencyCapability {
    if (this.policy !== 'auto') return this.policy;
    return this.said ? 'honoured' : 'unknown';
  }

  /**
   * Learns from one response's headers. A response without the header changes nothing (a
   * gateway's 502 page never carries it); one that says something else takes the promise back.
   */
  learn(headers: Headers): void {
    const value = headers.get(IDEMPOTENCY_SUPPORT_HEADER);
    if (value !== null) this.said = readIdempotencySupport(value);
  }

  /** May the transport send this create again on its own? Only with a key the service honours. */
  mayResendCreate(idempotencyKey: string | undefined): boolean {
    return idempotencyKey !== undefined && this.idempotencyKey === 'honoured';
  }
}
