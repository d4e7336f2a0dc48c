import { describe, expect, it } from 'vitest';
import {
  NO_REASON,
  aoiFailureReason,
  deliveryFailureReason,
  jobFailureReason,
  visualizationFailureReason,
} from '../failure-reason';

describe('why a record failed', () => {
  it('an AOI: its failed assets in the service words, once each; else that none was given', () => {
    const assets = [
      { status: 'failed', description: 'Scene S1 does not intersect the AOI' },
      { status: 'failed', description: 'Scene S1 does not intersect the AOI' },
      { status: 'success', description: 'fine' },
      { status: 'failed', description: 'Scene S2 is no longer in the archive' },
    ];
    expect(aoiFailureReason({ status: 'failed' }, assets)).toBe(
      'Scene S1 does not intersect the AOI; Scene S2 is no longer in the archive',
    );
    expect(aoiFailureReason({ status: 'partial_success' }, assets.slice(0, 1))).toBe(
      'Scene S1 does not intersect the AOI',
    );
    expect(aoiFailureReason({ status: 'failed' }, [{ status: 'failed' }])).toBe(NO_REASON);
    expect(aoiFailureReason({ status: 'failed' }, [])).toBe(NO_REASON);
    expect(aoiFailureReason({ status: 'running' }, assets)).toBeNull();
    expect(aoiFailureReason({ status: 'success' }, [])).toBeNull();
  });

  it('visualizations, deliveries and jobs', () => {
    expect(
      visualizationFailureReason({
        status: 'failed',
        assets: [{ status: 'failed', description: 'source asset failed' }],
      }),
    ).toBe('source asset failed');
    expect(visualizationFailureReason({ status: 'creating', assets: [] })).toBeNull();
    expect(deliveryFailureReason({ status: 'FAILED', reason: 'bucket refused the write' })).toBe(
      'bucket refused the write',
    );
    expect(deliveryFailureReason({ status: 'FAILED' })).toBe(NO_REASON);
    expect(deliveryFailureReason({ status: 'SUCCESS', reason: 'x' })).toBeNull();
    expect(
      jobFailureReason({
        status: 'FAILED',
        val_errors: [{ err: 'bad input', reason: 'no project' }],
        tasks: [
          { status: 'FAILED', err_msg: 'out of memory' },
          { status: 'SUCCEEDED', err_msg: 'ignored' },
        ],
      }),
    ).toBe('bad input: no project; out of memory');
    expect(jobFailureReason({ status: 'FAILED', tasks: [{ status: 'FAILED' }] })).toBe(NO_REASON);
  });
});
