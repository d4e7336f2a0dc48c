/**
 * kill -9 of `eo outbox flush` while a create is on its way (the proxy kills the process when
 * the request arrives, then forwards it: the service commits, nobody hears the answer), once
 * per queued create, then a last run that is left alone. Against a service that ignores
 * Idempotency-Key nothing is sent twice (the order is found by the lookup, the job waits
 * `unconfirmed`); against our service both are resent with their key and replayed. Either way
 * exactly one order and one job exist on the service.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy } from '../../__tests__/fault-proxy';
import { orderInput, startService, type TestService } from '../../outbox/__tests__/service';
import { eo } from './run-eo';
import { spawnEo, type EoProcess } from './spawn-eo';

let service: TestService;
const tmp = tempDir('cli-outbox-kill');
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

function count(table: 'orders' | 'jobs'): number {
  return service.server.app.ctx.sqlite
    .prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)
    .get()!.n;
}

async function killedRuns(ignoring: boolean) {
  const db = path.join(tmp.dir, `${ignoring ? 'ignoring' : 'honoured'}.db`);
  const order = JSON.stringify(orderInput(`kill ${ignoring ? 'ignoring' : 'honoured'}`));
  const job = JSON.stringify({ workflow_id: 'wf-change-detection', project_id: 'prj-demo-crops' });
  for (const [kind, json] of [
    ['order', order],
    ['job', job],
  ] as const) {
    expect((await eo(['outbox', 'add', kind, '--db', db, '--json', json])).code).toBe(0);
  }
  let running: EoProcess | undefined;
  let kills = 0;
  let posts = 0;
  const proxy = await startFaultProxy(
    service.url,
    (req) => {
      if (req.method !== 'POST') return 'pass';
      posts++;
      if (running && kills < 2) {
        kills++;
        running.child.kill('SIGKILL'); // dead before the service even sees the request
      }
      return 'pass';
    },
    { stripIdempotencyKey: ignoring },
  );
  const before = { orders: count('orders'), jobs: count('jobs') };
  const env = { EO_DB: db, EO_URL: proxy.url, EO_API_KEY: service.key };
  const runs: Array<{ code: number | null; signal: NodeJS.Signals | null }> = [];
  try {
    for (let run = 0; run < 3; run++) {
      running = spawnEo(['outbox', 'flush', '--progress', 'off'], env);
      runs.push(await running.exited);
      const check = new Database(db, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();
    }
  } finally {
    await proxy.close();
  }
  const states = JSON.parse((await eo(['outbox', 'list', '--db', db])).stdout) as Array<{
    kind: string;
    state: string;
    remoteId: string | null;
  }>;
  return {
    runs,
    posts,
    states,
    created: { orders: count('orders') - before.orders, jobs: count('jobs') - before.jobs },
  };
}

describe('kill -9 of eo outbox flush while sending', () => {
  it('a service that ignores the key: one create each; the job waits unconfirmed', async () => {
    const r = await killedRuns(true);
    expect(r.runs.map((x) => x.signal)).toEqual(['SIGKILL', 'SIGKILL', null]);
    expect(r.runs[2]!.code).toBe(1); // something is unconfirmed
    expect(r.posts).toBe(2);
    expect(r.created).toEqual({ orders: 1, jobs: 1 });
    expect(r.states.map((e) => [e.kind, e.state])).toEqual([
      ['order', 'sent'],
      ['job', 'unconfirmed'],
    ]);
    expect(r.states[0]!.remoteId).toMatch(/^ord/);
  }, 60_000);

  it('our service: both resent with their key and replayed; one create each, both sent', async () => {
    const r = await killedRuns(false);
    expect(r.runs.map((x) => x.signal)).toEqual(['SIGKILL', 'SIGKILL', null]);
    expect(r.runs[2]!.code).toBe(0);
    expect(r.posts).toBe(4);
    expect(r.created).toEqual({ orders: 1, jobs: 1 });
    expect(r.states.map((e) => e.state)).toEqual(['sent', 'sent']);
  }, 60_000);
});
