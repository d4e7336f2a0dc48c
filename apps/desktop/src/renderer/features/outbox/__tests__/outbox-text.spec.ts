import { describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '../../../../shared/contract';
import { entryProblem } from '../outbox-text';

function entry(patch: Partial<OutboxEntryView>): OutboxEntryView {
  return {
    id: 'e1',
    seq: 1,
    kind: 'job',
    state: 'queued',
    input: {},
    dependsOn: [],
    attempts: 0,
    nextAttemptAt: null,
    createdAt: '2024-05-17T08:00:00.000Z',
    updatedAt: '2024-05-17T08:00:00.000Z',
    sentAt: null,
    lastError: null,
    remoteId: null,
    response: null,
    summary: 'Job · wf-a for p',
    can: { edit: true, retry: false, cancel: true, confirm: false, resend: false },
    ...patch,
  };
}

describe('entryProblem', () => {
  it('has nothing to say about a fresh or sent entry', () => {
    expect(entryProblem(entry({}), [])).toBeNull();
    expect(entryProblem(entry({ state: 'sent', remoteId: 'j1' }), [])).toBeNull();
  });

  it('says a delivery waiting for its order items waits, not that an attempt failed', () => {
    const waiting = entryProblem(
      entry({
        kind: 'delivery',
        lastError: {
          kind: 'waiting',
          message: 'waiting for order items to complete: oi_1 (RUNNING)',
        },
      }),
      [],
    );
    expect(waiting?.text).toBe(
      'Waiting before it is sent: waiting for order items to complete: oi_1 (RUNNING). It goes by itself.',
    );
  });

  it('says a queued entry will be tried again after a transport or temporary failure', () => {
    const offline = entryProblem(
      entry({ attempts: 1, lastError: { kind: 'network', message: 'connect ECONNREFUSED' } }),
      [],
    );
    expect(offline?.text).toBe(
      'The last attempt did not reach the service (connect ECONNREFUSED). It is tried again automatically.',
    );
    const busy = entryProblem(
      entry({ attempts: 2, lastError: { kind: 'api', status: 503, message: 'overloaded' } }),
      [],
    );
    expect(busy?.text).toBe(
      'The last attempt got a temporary error (HTTP 503): overloaded. It is tried again automatically.',
    );
  });

  it("falls back to the outbox's own reason when the blocking entry is not known here", () => {
    const p = entryProblem(
      entry({
        state: 'blocked',
        dependsOn: ['gone'],
        lastError: {
          kind: 'blocked',
          message: 'depends on aoi gone, which is failed: unknown project',
          details: [{ path: 'project_id', message: 'unknown project' }],
        },
      }),
      [undefined],
    );
    expect(p?.text).toBe('depends on aoi gone, which is failed: unknown project');
    expect(p?.details).toEqual(['Project: Unknown project']);
  });

  it('names a cancelled dependency', () => {
    const dep = entry({ id: 'a', kind: 'aoi', state: 'cancelled', summary: 'AOI · North' });
    const p = entryProblem(entry({ state: 'blocked', dependsOn: ['a'] }), [dep]);
    expect(p?.text).toBe(
      'Not sent because “AOI · North” was cancelled. Fix or retry that first, or edit this entry.',
    );
  });
});
