/**
 * Error bodies as services send them (test/varying-server.ts `errorReply` on 127.0.0.1): the
 * real service's `{ error: { code, message, details } }` with `details` null or an object, ours
 * (a list), flat, FastAPI-like and plain text. The user must see the service's own words and
 * field paths, whatever the shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReply, startVaryingServer, type VaryingServer } from '../../test/varying-server';
import { readErrorBody } from '../error-body';
import { createEoClient, EoApiError, type EoClient } from '../index';

const KEY = 'eok_error_bodies_0123';
let srv: VaryingServer;
let client: EoClient;
beforeAll(async () => {
  srv = await startVaryingServer({});
  client = createEoClient({ baseUrl: srv.url, apiKey: KEY, validateRequests: false });
});
afterAll(async () => srv.close());

async function refusedOrder(): Promise<EoApiError> {
  try {
    await client.createOrder({} as never, { idempotencyKey: false });
  } catch (e) {
    if (e instanceof EoApiError) return e;
    throw e;
  }
  throw new Error('expected the order to be refused');
}

const refusal = {
  code: 'bad_request',
  message: 'order is invalid',
  fields: { usecase: 'usecase is required', 'order_items.0.geometry': 'must be a Polygon' },
};

describe('a refused order shows the service’s own words', () => {
  it('the real shape with details null: code and message (not "Bad Request")', async () => {
    srv.failNext('/v0/orders', errorReply('real', 400, refusal));
    const e = await refusedOrder();
    expect(e.message).toBe('POST /v0/orders failed with 400 bad_request: order is invalid');
    expect(e).toMatchObject({ code: 'bad_request', details: undefined, rawDetails: null });
  });
  it('the real shape with details an object: each field a { path, message } detail, raw kept', async () => {
    srv.failNext('/v0/orders', errorReply('real-object', 400, refusal));
    const e = await refusedOrder();
    expect(e.details).toEqual([
      { path: 'usecase', message: 'usecase is required' },
      { path: 'order_items.0.geometry', message: 'must be a Polygon' },
    ]);
    expect(e.rawDetails).toEqual(refusal.fields);
    expect(e.message).toBe(
      'POST /v0/orders failed with 400 bad_request: order is invalid ' +
        '(usecase: usecase is required; order_items.0.geometry: must be a Polygon)',
    );
  });
  it('ours (a list whose first detail the message repeats): not said twice', async () => {
    srv.failNext(
      '/v0/orders',
      errorReply('ours', 400, {
        code: 'validation_failed',
        message: 'usecase: usecase is required',
        fields: { usecase: 'usecase is required' },
      }),
    );
    const e = await refusedOrder();
    expect(e.message).toBe(
      'POST /v0/orders failed with 400 validation_failed: usecase: usecase is required',
    );
    expect(e.details).toEqual([{ path: 'usecase', message: 'usecase is required' }]);
  });
  it('flat { code, message }', async () => {
    srv.failNext('/v0/orders', errorReply('flat', 422, refusal));
    const e = await refusedOrder();
    expect(e).toMatchObject({ status: 422, code: 'bad_request' });
    expect(e.message).toContain('order is invalid');
  });
  it('FastAPI { detail: "..." } and { detail: [{ loc, msg }] }', async () => {
    srv.failNext('/v0/orders', errorReply('fastapi', 400, refusal));
    expect((await refusedOrder()).message).toBe(
      'POST /v0/orders failed with 400: order is invalid',
    );
    srv.failNext('/v0/orders', errorReply('fastapi-list', 422, refusal));
    const e = await refusedOrder();
    expect(e.details?.map((d) => [d.path, d.message])).toEqual([
      ['usecase', 'usecase is required'],
      ['order_items.0.geometry', 'must be a Polygon'],
    ]);
    expect(e.message).toBe(
      'POST /v0/orders failed with 422: ' +
        'usecase: usecase is required; order_items.0.geometry: must be a Polygon',
    );
  });
  it('plain text', async () => {
    srv.failNext('/v0/orders', errorReply('text', 400, refusal));
    const e = await refusedOrder();
    expect(e).toMatchObject({ body: 'order is invalid', code: undefined });
    expect(e.message).toBe('POST /v0/orders failed with 400: order is invalid');
  });
  it('the API key echoed in details is redacted in details, raw details and the message', async () => {
    srv.failNext(
      '/v0/orders',
      errorReply('real-object', 401, {
        code: 'unauthorized',
        message: 'bad key',
        fields: { authorization: `unknown key ${KEY}` },
      }),
    );
    const e = await refusedOrder();
    const seen = JSON.stringify([e.message, e.details, e.rawDetails, e.body]);
    expect(seen).not.toContain(KEY);
    expect(e.details).toEqual([{ path: 'authorization', message: 'unknown key [redacted]' }]);
  });
});

describe('readErrorBody: other shapes met in practice', () => {
  it('details as one detail object, nested field objects, lists of messages, a string', () => {
    expect(
      readErrorBody({
        error: { code: 'x', message: 'm', details: { field: 'name', reason: 'too long' } },
      }).details,
    ).toEqual([{ field: 'name', reason: 'too long', path: 'name', message: 'too long' }]);
    expect(
      readErrorBody({
        error: {
          message: 'm',
          details: { order_items: { 0: { name: ['required', 'too short'] } } },
        },
      }).details,
    ).toEqual([
      { path: 'order_items.0.name', message: 'required' },
      { path: 'order_items.0.name', message: 'too short' },
    ]);
    expect(readErrorBody({ error: { message: 'm', details: 'quota exceeded' } }).details).toEqual([
      { path: '', message: 'quota exceeded' },
    ]);
    expect(readErrorBody({ error: { message: 'm', details: { retry: 3 } } }).details).toEqual([
      { path: 'retry', message: '3' },
    ]);
  });
  it('OAuth-like, RFC 7807, { errors }, numeric codes, HTML pages, nothing', () => {
    expect(readErrorBody({ error: 'invalid_token', error_description: 'expired' })).toEqual({
      message: 'expired',
    });
    expect(readErrorBody({ title: 'Bad Request', detail: 'usecase is required' })).toEqual({
      message: 'usecase is required',
    });
    expect(
      readErrorBody({ code: 4001, errors: [{ pointer: '/usecase', detail: 'required' }] }),
    ).toMatchObject({ code: '4001', details: [{ path: 'usecase', message: 'required' }] });
    expect(
      readErrorBody('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'),
    ).toEqual({ message: '502 Bad Gateway' });
    expect(readErrorBody(undefined)).toEqual({});
    expect(readErrorBody('  ')).toEqual({});
    expect(readErrorBody([1, 2])).toEqual({});
  });
});
