/**
 * The per-call `validate: false`: an input the caller checked already with the client's own
 * schema is not checked again, and goes to the service, which validates it as always.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/service';
import { createEoClient, EoApiError, EoValidationError, type EoClient } from '../index';

let svc: TestService;
let client: EoClient;
const sent: string[] = [];
beforeAll(async () => {
  svc = await startService();
  client = createEoClient({
    baseUrl: svc.url,
    apiKey: svc.key,
    retry: { maxAttempts: 1 },
    onRequest: (e) => sent.push(e.endpoint),
  });
});
afterAll(async () => svc.close());

/** An order the schema refuses (no items): only a check can tell. */
const empty = { order_items: [] } as never;

describe('validate per call', () => {
  it('checks by default, before anything is sent', async () => {
    sent.length = 0;
    await expect(client.createOrder(empty)).rejects.toBeInstanceOf(EoValidationError);
    expect(sent).toEqual([]);
  });

  it('validate: false sends the input as given; the service still refuses it', async () => {
    sent.length = 0;
    const err = await client.createOrder(empty, { validate: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoApiError);
    expect((err as EoApiError).status).toBe(400);
    expect(sent).toEqual(['createOrder']);
  });
});
