/**
 * `enqueueAll`: several creates in one transaction, all or nothing (the desktop's "Queue N
 * AOIs" from a field file), on a real SQLite file; inputs from the real reference service.
 */
import type { EoClient } from '@eo/api-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboxInputError } from '../errors';
import { createOutbox, type Outbox } from '../outbox';
import {
  aoiInput,
  indexInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from './service';

let svc: TestService;
let client: EoClient;
let local: ReturnType<typeof tempDatabase>;
let outbox: Outbox;

beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());
beforeEach(() => {
  local = tempDatabase();
  outbox = createOutbox({ db: local.sqlite, client, mirror: { recordCreated: () => undefined } });
});
afterEach(() => local.remove());

describe('enqueueAll', () => {
  it('queues every create, in order, in one call', async () => {
    const inputs = [await aoiInput(client, 'Wiese'), await aoiInput(client, 'Acker')];
    const entries = outbox.enqueueAll(inputs.map((input) => ({ kind: 'aoi' as const, input })));
    expect(entries.map((e) => [e.kind, e.state, (e.input as { name: string }).name])).toEqual([
      ['aoi', 'queued', 'Wiese'],
      ['aoi', 'queued', 'Acker'],
    ]);
    expect(entries[1]!.seq).toBeGreaterThan(entries[0]!.seq);
    expect(outbox.list().map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it('one refused: nothing queued, the paths say which create and which field', async () => {
    const good = await aoiInput(client, 'Wiese');
    let error: unknown;
    try {
      outbox.enqueueAll([
        { kind: 'aoi', input: good },
        { kind: 'index', input: indexInput('NDRE') },
        { kind: 'aoi', input: { ...good, name: '' } },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutboxInputError);
    expect((error as OutboxInputError).message).toMatch(
      /^Nothing queued: create 3 of 3 is invalid/,
    );
    expect((error as OutboxInputError).details.map((d) => d.path)).toEqual(['2.name']);
    expect(outbox.list()).toEqual([]);
    expect(outbox.counts().queued).toBe(0);
  });
});
