/**
 * Envelope breakage is a clear error: the message names the endpoint, what was expected and what
 * arrived, and tells "missing" from "wrong type"; the error keeps the body (key redacted) so a
 * caller can keep the raw answer of a 2xx it could not use. A numeric id in a create answer is
 * unambiguous: coerced to a string and reported as drift. Served by a recording HTTP server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { wire } from '../../test/fixtures';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { indexBody } from '../../test/service';
import { createEoClient, EoResponseError, type EoClient, type SchemaDriftEvent } from '../index';

const KEY = 'eok_envelopes_0123456';
let srv: TestHttpServer;
let client: EoClient;
const drift: SchemaDriftEvent[] = [];
beforeAll(async () => {
  srv = await startHttpServer();
  client = createEoClient({ baseUrl: srv.url, apiKey: KEY, onSchemaDrift: (e) => drift.push(e) });
});
afterAll(async () => srv.close());
beforeEach(() => {
  drift.length = 0;
});

async function responseError(p: Promise<unknown>): Promise<EoResponseError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof EoResponseError) return e;
    throw e;
  }
  throw new Error('expected an EoResponseError');
}

describe('a create answer', () => {
  it('with a numeric id: coerced to its string, reported as drift', async () => {
    srv.setHandler(() => ({ status: 201, json: { ...wire.index(), id: 42 } }));
    const index = await client.createIndex(indexBody('n'), { idempotencyKey: false });
    expect(index.id).toBe('42');
    expect(drift).toEqual([
      {
        endpoint: 'createIndex',
        issues: [{ path: 'id', message: 'a number (42), used as the string id "42"' }],
      },
    ]);
  });
  it('with a numeric id and other drift: one report with both', async () => {
    srv.setHandler(() => ({ status: 201, json: { ...wire.index(), id: 7, name: 3 } }));
    const index = await client.createIndex(indexBody('n'), { idempotencyKey: false });
    expect(index.id).toBe('7');
    expect(drift[0]!.issues.map((i) => i.path)).toEqual(['id', 'name']);
  });
  it('with an id of the wrong type: names it, the expectation and the endpoint; keeps the body', async () => {
    const body = { ...wire.index(), id: { value: 'idx-1' } };
    srv.setHandler(() => ({ status: 201, json: body }));
    const e = await responseError(client.createIndex(indexBody('n'), { idempotencyKey: false }));
    expect(e.message).toBe(
      'POST /v0/indices: unusable response: "id" is an object (keys: value) (expected a non-empty string id)',
    );
    expect(e).toMatchObject({ status: 201, endpoint: 'createIndex', body });
  });
  it('without an id: "missing", with the keys that did arrive', async () => {
    srv.setHandler(() => ({ status: 201, json: { index: wire.index() } }));
    const e = await responseError(client.createIndex(indexBody('n'), { idempotencyKey: false }));
    expect(e.message).toBe(
      'POST /v0/indices: unusable response: "id" is missing (expected a non-empty string id; the body has keys: index)',
    );
    expect(e.body).toEqual({ index: wire.index() });
  });
  it('an empty id and a null id are told apart', async () => {
    srv.setHandler(() => ({ status: 201, json: { ...wire.index(), id: '' } }));
    const a = await responseError(client.createIndex(indexBody('n'), { idempotencyKey: false }));
    expect(a.message).toContain('"id" is an empty string (expected a non-empty string id)');
    srv.setHandler(() => ({ status: 201, json: { ...wire.index(), id: null } }));
    const b = await responseError(client.createIndex(indexBody('n'), { idempotencyKey: false }));
    expect(b.message).toContain('"id" is null (expected a non-empty string id)');
  });
  it('a body that is not JSON: the content type and an excerpt; the text kept, key redacted', async () => {
    srv.setHandler((r) => ({
      status: 201,
      text: `<html>Created for ${String(r.headers.authorization)}</html>`,
      headers: { 'content-type': 'text/html' },
    }));
    const e = await responseError(client.createIndex(indexBody('n'), { idempotencyKey: false }));
    expect(e.message).toBe(
      'POST /v0/indices: unusable response: 201 with a body that is not JSON (text/html): ' +
        '"<html>Created for [redacted]</html>" (expected JSON)',
    );
    expect(e.body).toBe('<html>Created for [redacted]</html>');
    expect(e.status).toBe(201);
  });
  it('a JSON body that echoes the key: redacted in the kept body', async () => {
    srv.setHandler((r) => ({ status: 201, json: { echo: r.headers.authorization } }));
    const e = await responseError(client.createIndex(indexBody('n'), { idempotencyKey: false }));
    expect(e.body).toEqual({ echo: '[redacted]' });
  });
});

describe('a list answer', () => {
  it('list key missing: "missing", with the keys that arrived', async () => {
    srv.setHandler(() => ({ json: { data: [], meta: {} } }));
    const e = await responseError(client.listOrders({ limit: 5 }));
    expect(e.message).toBe(
      'GET /v0/orders?limit=5: unusable response: "orders" is missing (expected an array; the body has keys: data, meta)',
    );
  });
  it('list key of the wrong type, and a body that is not an object', async () => {
    srv.setHandler(() => ({ json: { orders: { 'ord-1': wire.order() } } }));
    const a = await responseError(client.listOrders());
    expect(a.message).toBe(
      'GET /v0/orders: unusable response: "orders" is an object (keys: ord-1) (expected an array)',
    );
    srv.setHandler(() => ({ json: [wire.order()] }));
    const b = await responseError(client.listOrders());
    expect(b.message).toBe(
      'GET /v0/orders: unusable response: expected a JSON object, got an array (1 item)',
    );
    expect(b.body).toEqual([wire.order()]);
  });
  it('satellite search items that are a string', async () => {
    srv.setHandler(() => ({ json: { items: 'none', pagination: {} } }));
    const e = await responseError(
      client.searchSatelliteImages({
        satellite: { collection_id: 'c', satellite_id: 's' },
      } as never),
    );
    expect(e.message).toContain('"items" is a string ("none") (expected an object or an array)');
  });
});
