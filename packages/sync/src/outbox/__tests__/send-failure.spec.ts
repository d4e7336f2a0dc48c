/**
 * The decision after a failed send, alone: which outcome each answer leads to, and the doubt
 * and attempt time it keeps (the flush's end-to-end behaviour is faults.spec.ts and
 * idempotency.spec.ts against the real service).
 */
import {
  EoAbortError,
  EoApiError,
  EoNetworkError,
  EoResponseError,
  type EoClientError,
} from '@eo/api-client';
import { describe, expect, it } from 'vitest';
import type { StoredError } from '../errors';
import { isRateLimited, makeBackoff, sendFailure, type FailedAttempt } from '../send-failure';

const api = (status: number, extra: { code?: string; retryAfterMs?: number } = {}) =>
  new EoApiError({ message: `status ${status}`, status, attempts: 1, ...extra });
const fresh: FailedAttempt = {
  leaving: true,
  leftAt: 1_000,
  doubted: null,
  lastError: null,
  policy: 'auto',
};
const doubt: StoredError = { kind: 'timeout', message: 'lost', inDoubt: true, attemptedAt: 500 };
const decide = (err: EoClientError, attempt: Partial<FailedAttempt> = {}) =>
  sendFailure(err, { ...fresh, ...attempt });

describe('what becomes of an entry whose send failed', () => {
  it('a 4xx that left is failed, not in doubt', () => {
    const out = decide(api(422, { code: 'validation_failed' }));
    expect(out).toMatchObject({
      next: 'failed',
      error: { status: 422, code: 'validation_failed' },
    });
    expect(out.error?.inDoubt).toBeUndefined();
  });

  it('a 5xx after the create left may have created it: in doubt since it left', () => {
    expect(decide(api(503))).toMatchObject({
      next: 'in-doubt',
      error: { inDoubt: true, attemptedAt: 1_000 },
    });
  });

  it('a network failure before the create left is only a retry', () => {
    const err = new EoNetworkError({ message: 'refused', cause: { code: 'ECONNREFUSED' } });
    expect(decide(err, { leaving: false })).toMatchObject({ next: 'retry' });
  });

  it('an entry already in doubt stays in doubt on a transient answer, with its first attempt time', () => {
    const out = decide(api(429), { doubted: doubt });
    expect(out).toMatchObject({ next: 'in-doubt', error: { inDoubt: true, attemptedAt: 500 } });
  });

  it('a 409 "still being processed" waits with its key, unless keys are ignored', () => {
    const err = api(409, { code: 'idempotency_key_in_progress' });
    expect(decide(err)).toMatchObject({
      next: 'key-in-progress',
      error: { keyInProgress: true, inDoubt: true, attemptedAt: 1_000 },
    });
    expect(decide(err, { policy: 'ignored' }).next).toBe('failed');
  });

  it('a 2xx without a usable body was created: settled, its body kept', () => {
    const err = new EoResponseError({ message: 'no id', status: 201, body: { id: 'x' } });
    expect(decide(err)).toMatchObject({ next: 'settle', raw: { id: 'x' } });
  });

  it('an abort keeps the earlier error unless the create may have left', () => {
    const before: StoredError = { kind: 'api', status: 500, message: 'earlier' };
    const notSent = new EoAbortError({ message: 'aborted', attempts: 0 });
    expect(decide(notSent, { leaving: false, lastError: before })).toEqual({
      next: 'aborted',
      error: before,
    });
    const sent = new EoAbortError({ message: 'aborted', attempts: 1 });
    expect(decide(sent, { lastError: before })).toMatchObject({
      next: 'aborted',
      error: { kind: 'abort', inDoubt: true },
    });
  });

  it('only a 429 holds the kind', () => {
    expect(isRateLimited(api(429))).toBe(true);
    expect(isRateLimited(api(503))).toBe(false);
  });
});

describe('the next attempt', () => {
  it('doubles from the base, capped, jittered into its upper half, never before a Retry-After', () => {
    const at = (random: number) =>
      makeBackoff({ micros: () => 0, random: () => random, baseMs: 1_000, maxMs: 8_000 });
    expect(at(0)(1, undefined)).toBe(500_000);
    expect(at(0.999_999)(3, undefined)).toBeCloseTo(4_000_000, -1);
    expect(at(0)(10, undefined)).toBe(4_000_000);
    expect(at(0)(1, api(429, { retryAfterMs: 30_000 }))).toBe(30_000_000);
  });
});
