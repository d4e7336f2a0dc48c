/**
 * Demo data: on the first start with an empty data dir, the demo organisation, its users and
 * projects, a demo API key (returned so the CLI prints it once), preset indices, and the
 * archive. Idempotent: running it on a seeded database changes nothing.
 */
import type Database from 'better-sqlite3';
import { seedPresetIndices } from '../indices/presets';
import { createApiKey, createOrganization, createProject, createUser } from '../orgs/repository';
import { DEMO } from '../reference/catalog';

export interface SeedOptions {
  /** Archive scenes to generate (default: a few thousand). */
  readonly scenes?: number;
  readonly nowMs: number;
}

export interface SeedResult {
  /** The demo key in clear, only when it was created by this call. */
  readonly demoKey?: string;
}

export function isSeeded(sqlite: Database.Database): boolean {
  return sqlite.prepare('SELECT 1 FROM organizations WHERE id = ?').get(DEMO.orgId) !== undefined;
}

export function seedDemo(sqlite: Database.Database, opts: SeedOptions): SeedResult {
  const nowUs = opts.nowMs * 1000;
  seedPresetIndices(sqlite, nowUs);
  if (isSeeded(sqlite)) return {};
  return sqlite.transaction((): SeedResult => {
    createOrganization(sqlite, { id: DEMO.orgId, name: DEMO.orgName }, opts.nowMs);
    for (const u of DEMO.users) createUser(sqlite, { ...u, orgId: DEMO.orgId }, opts.nowMs);
    for (const p of DEMO.projects) createProject(sqlite, { ...p, orgId: DEMO.orgId }, opts.nowMs);
    const demoKey = createApiKey(
      sqlite,
      { orgId: DEMO.orgId, userId: DEMO.users[0].id, label: 'demo' },
      opts.nowMs,
    );
    return { demoKey };
  })();
}
