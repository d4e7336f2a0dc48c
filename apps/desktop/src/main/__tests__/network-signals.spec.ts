/** Resume from sleep reaches the backend as a network signal (main-wiring.spec.ts: wired). */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { forwardResume } from '../network-signals';

describe('forwardResume', () => {
  it('each resume asks the backend to check soon; a refused call is swallowed', async () => {
    const power = new EventEmitter();
    const calls: unknown[][] = [];
    let refuse = false;
    forwardResume(power, (method, input) => {
      calls.push([method, input]);
      return refuse ? Promise.reject(new Error('backend gone')) : Promise.resolve({ ok: true });
    });
    expect(calls).toEqual([]);
    power.emit('resume');
    expect(calls).toEqual([['connectivity.networkChanged', { reason: 'resume' }]]);
    refuse = true;
    power.emit('resume');
    // An unhandled rejection would fail the run; the call was still made.
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(2);
  });
});
