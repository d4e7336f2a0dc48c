/**
 * A field site for package tests: the real reference service (300 archive scenes, so 15 demo
 * catalog records), two orders and an AOI created through a mirror's outbox, and that mirror
 * synced with its thumbnails: what the laptop on the office's fibre holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EoClient } from '@eo/api-client';
import { seedDemo, startServer, type RunningServer } from '@eo/reference-service';
import Database from 'better-sqlite3';
import { aoiInput, orderInput, testClient } from '../../outbox/__tests__/service';
import { openMirror, type Mirror } from '../../mirror/mirror';
import { mirrorSnapshot, type Snapshot } from '../../__tests__/mirror-snapshot';

export interface Site {
  readonly url: string;
  readonly key: string;
  readonly server: RunningServer;
  readonly client: EoClient;
  readonly dir: string;
  /** The synced laptop's mirror. */
  readonly office: Mirror;
  /** A fresh mirror file in the site's folder. */
  mirror(name: string): Mirror;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-field-package-'));
  const server = await startServer({
    dataDir: path.join(dir, 'service'),
    logLevel: false,
    stepDelayMs: 0,
    workerTickMs: 0,
  });
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 300 }).demoKey!;
  const client = testClient(server.url, key);
  const opened: Mirror[] = [];
  const mirror = (name: string) => {
    const m = openMirror(path.join(dir, name, 'mirror.sqlite'));
    opened.push(m);
    return m;
  };
  const office = mirror('office');
  office.outbox.enqueue('order', orderInput('North field'));
  office.outbox.enqueue('order', orderInput('South field'));
  office.outbox.enqueue('aoi', await aoiInput(client, 'Maize 2024'));
  const flushed = await office.flush(client);
  if (flushed.sent !== 3) throw new Error(`the site's creates: ${JSON.stringify(flushed)}`);
  await office.sync(client, {
    imagery: { serviceUrl: server.url, choice: 'thumbnails', budgetBytes: 1024 ** 3 },
  });
  return {
    url: server.url,
    key,
    server,
    client,
    dir,
    office,
    mirror,
    async close() {
      for (const m of opened) m.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every record of each resource by id with its `updated_at` (the merge's judge). */
export function changeTimes(snapshot: Snapshot): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(snapshot).map(([resource, records]) => [
      resource,
      Object.fromEntries(
        Object.entries(records).map(([id, r]) => [
          id,
          (r as { updated_at?: unknown }).updated_at ?? null,
        ]),
      ),
    ]),
  );
}

/** The mirror's records, read through a connection of the test's own. */
export function snapshotOf(m: Mirror): Snapshot {
  const db = new Database(m.file, { readonly: true });
  try {
    return mirrorSnapshot(db);
  } finally {
    db.close();
  }
}
