import { describe, expect, it } from 'vitest';
import { formatSeconds, percentOf } from '../durations';
import { plainPath, plainProblem } from '../fields';
import { deliveryFinished, deliveryStatusText, jobFinished, jobStatusText } from '../statuses';

describe('field paths in words', () => {
  it('reads dotted paths with 1-based item numbers', () => {
    expect(plainPath('order_items.0.name')).toBe('order items #1 › name');
    expect(plainPath('deliveries.1.cloud_info.path')).toBe('deliveries #2 › cloud info › path');
    expect(plainPath('item_ids.2')).toBe('item ids #3');
    expect(plainPath('0')).toBe('#1');
    expect(plainPath('')).toBe('the request');
    expect(plainProblem({ path: 'project_id', message: 'unknown project' })).toBe(
      'project id: unknown project',
    );
  });
});

describe('durations and percentages', () => {
  it('writes seconds for people', () => {
    expect(formatSeconds(45)).toBe('45 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
    expect(formatSeconds(120)).toBe('2 min');
    expect(formatSeconds(3720)).toBe('1 h 2 min');
    expect(formatSeconds(7200)).toBe('2 h');
    expect(formatSeconds(null)).toBe('—');
    expect(formatSeconds(-1)).toBe('—');
  });

  it('reads percentages carried as strings', () => {
    expect(percentOf('45')).toBe(45);
    expect(percentOf('100%')).toBe(100);
    expect(percentOf('130')).toBe(100);
    expect(percentOf('n/a')).toBeNull();
    expect(percentOf(null)).toBeNull();
  });
});

describe('statuses in words', () => {
  it('names known values and shows unknown ones as they are', () => {
    expect(deliveryStatusText('SUCCESS')).toEqual({ label: 'Delivered', tone: 'ok' });
    expect(deliveryStatusText('ARCHIVED')).toEqual({ label: 'ARCHIVED', tone: 'idle' });
    expect(jobStatusText(undefined).label).toBe('Unknown');
  });

  it('treats only the end states as finished', () => {
    expect(deliveryFinished('SUCCESS')).toBe(true);
    expect(deliveryFinished('FAILED')).toBe(true);
    expect(deliveryFinished('SOMETHING_NEW')).toBe(false);
    expect(jobFinished('SUCCEEDED')).toBe(true);
    expect(jobFinished('QUEUED')).toBe(false);
  });
});
