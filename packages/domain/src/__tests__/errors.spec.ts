import { describe, expect, it } from 'vitest';
import {
  ApiErrorBody,
  CreateOrderRequest,
  ERROR_CODES,
  describeErrorBody,
  formatIssuePath,
  summarizeDetails,
  zodErrorDetails,
} from '../index';
import { buildTaskingOrderItemInput } from '../testing';

function errorOf(value: unknown) {
  const r = CreateOrderRequest.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  return r.error;
}

describe('zodErrorDetails', () => {
  it('dotted paths with array indices, in issue order', () => {
    const item = { ...buildTaskingOrderItemInput.minimal(), name: '', cloud_cover: 120 };
    const details = zodErrorDetails(
      errorOf({ order_items: [buildTaskingOrderItemInput.minimal(), item] }),
    );
    expect(details).toEqual([
      { path: 'order_items.1.name', message: 'name is required' },
      { path: 'order_items.1.cloud_cover', message: 'cloud_cover is a percentage <= 100' },
    ]);
  });

  it('a prefix goes first; a root issue has an empty path or just the prefix', () => {
    const err = errorOf({ order_items: [], extra: 1 });
    expect(zodErrorDetails(err, 'body').map((d) => d.path)).toEqual(['body.order_items', 'body']);
    expect(zodErrorDetails(err).map((d) => d.path)).toEqual(['order_items', '']);
  });

  it('formatIssuePath', () => {
    expect(formatIssuePath(['a', 0, 'b'])).toBe('a.0.b');
    expect(formatIssuePath([])).toBe('');
  });
});

describe('summarizeDetails', () => {
  it('joins up to max details and counts the rest', () => {
    const d = [
      { path: 'a', message: 'm1' },
      { path: '', message: 'root' },
      { path: 'c', message: 'm3' },
      { path: 'd', message: 'm4' },
    ];
    expect(summarizeDetails(d)).toBe('a: m1; root; c: m3 (and 1 more)');
    expect(summarizeDetails(d, 1)).toBe('a: m1 (and 3 more)');
    expect(summarizeDetails([])).toBe('');
  });
});

describe('describeErrorBody', () => {
  it('our shape: code, message and details', () => {
    const body = {
      error: {
        code: 'validation_failed',
        message: 'invalid body',
        details: [{ path: 'name', message: 'required' }],
      },
    };
    expect(ApiErrorBody.safeParse(body).success).toBe(true);
    expect(describeErrorBody(body)).toEqual({
      code: 'validation_failed',
      message: 'invalid body',
      details: [{ path: 'name', message: 'required' }],
    });
    expect(describeErrorBody({ error: { code: 'not_found', message: 'no such order' } })).toEqual({
      code: 'not_found',
      message: 'no such order',
    });
  });

  it('{ message } and { message, code }', () => {
    expect(describeErrorBody({ message: 'Forbidden' })).toEqual({ message: 'Forbidden' });
    expect(describeErrorBody({ message: 'Too many', code: 'rate_limited' })).toEqual({
      code: 'rate_limited',
      message: 'Too many',
    });
  });

  it('{ detail } as text, and as a FastAPI validation list', () => {
    expect(describeErrorBody({ detail: 'Not authenticated' })).toEqual({
      message: 'Not authenticated',
    });
    const list = [{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }];
    expect(describeErrorBody({ detail: list })).toEqual({ message: JSON.stringify(list) });
  });

  it('{ error: "text" } and { title }', () => {
    expect(describeErrorBody({ error: 'invalid_token' })).toEqual({ message: 'invalid_token' });
    expect(describeErrorBody({ title: 'Bad Request', status: 400 })).toEqual({
      message: 'Bad Request',
    });
  });

  it('plain text is trimmed and capped at 500 characters', () => {
    expect(describeErrorBody('  Bad Gateway\n')).toEqual({ message: 'Bad Gateway' });
    expect(describeErrorBody('x'.repeat(800)).message).toHaveLength(500);
  });

  it('empty bodies give nothing', () => {
    for (const body of ['', '   ', null, undefined, {}, [], 42])
      expect(describeErrorBody(body)).toEqual({});
  });

  it('error codes are unique snake_case', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const c of ERROR_CODES) expect(c).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
