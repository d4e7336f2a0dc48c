/** Organisations, users, projects and API keys. */
import type Database from 'better-sqlite3';
import { OrganisationIdString } from '@eo/domain';
import { generateKey, hashKey } from '../http/auth';
import { newId } from '../ids';

export function createOrganization(
  sqlite: Database.Database,
  org: { id?: string; name: string },
  nowMs: number,
): string {
  const id = org.id ?? newId('org');
  const checked = OrganisationIdString.safeParse(id);
  if (!checked.success)
    throw new RangeError(
      `organisation id ${JSON.stringify(id)}: ${checked.error.issues[0]!.message}`,
    );
  sqlite
    .prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)')
    .run(id, org.name, nowMs);
  return id;
}

export function createUser(
  sqlite: Database.Database,
  user: { id?: string; orgId: string; name: string; email: string },
  nowMs: number,
): string {
  const id = user.id ?? newId('usr');
  sqlite
    .prepare('INSERT INTO users (id, org_id, name, email, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(id, user.orgId, user.name, user.email, nowMs);
  return id;
}

export function createProject(
  sqlite: Database.Database,
  project: { id?: string; orgId: string; name: string },
  nowMs: number,
): string {
  const id = project.id ?? newId('prj');
  sqlite
    .prepare('INSERT INTO projects (id, org_id, name, created_at) VALUES (?, ?, ?, ?)')
    .run(id, project.orgId, project.name, nowMs);
  return id;
}

/**
 * Issues a key for a user and returns it: the only time the key exists in clear.
 * `fixedKey` lets the demo seed use a documented key.
 */
export function createApiKey(
  sqlite: Database.Database,
  opts: { orgId: string; userId: string; label?: string; fixedKey?: string },
  nowMs: number,
): string {
  const user = sqlite
    .prepare<[string], { org_id: string }>('SELECT org_id FROM users WHERE id = ?')
    .get(opts.userId);
  if (!user) throw new Error(`unknown user ${opts.userId}`);
  if (user.org_id !== opts.orgId)
    throw new Error(`user ${opts.userId} is not in organisation ${opts.orgId}`);
  const key = opts.fixedKey ?? generateKey();
  sqlite
    .prepare(
      'INSERT INTO api_keys (id, key_hash, key_prefix, org_id, user_id, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      newId('key'),
      hashKey(key),
      key.slice(0, 8),
      opts.orgId,
      opts.userId,
      opts.label ?? null,
      nowMs,
    );
  return key;
}

export function projectBelongsTo(
  sqlite: Database.Database,
  projectId: string,
  orgId: string,
): boolean {
  return (
    sqlite.prepare('SELECT 1 FROM projects WHERE id = ? AND org_id = ?').get(projectId, orgId) !==
    undefined
  );
}
