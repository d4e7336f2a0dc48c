/**
 * Test harness: a real app on a real SQLite file in a temp folder, with the demo organisation
 * seeded and a second organisation for isolation tests. The worker loop is off; tests move
 * background work with `ctx.worker.drain()`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app';
import type { ServerConfig } from '../config';
import { createApiKey, createOrganization, createProject, createUser } from '../orgs/repository';
import { seedDemo } from '../seed/demo';
import { DEMO } from '@eo/fixtures';

export const OTHER = { orgId: 'org-other', userId: 'usr-other', projectId: 'prj-other' } as const;

export interface TestApp {
  readonly app: FastifyInstance;
  readonly dataDir: string;
  /** Demo organisation key (user usr-demo-analyst). */
  readonly key: string;
  /** Key of another organisation, for isolation tests. */
  readonly otherKey: string;
  /** `app.inject` with the demo key. */
  call(opts: InjectOptions & { key?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: Partial<ServerConfig> & { scenes?: number } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-server-test-'));
  const app = await buildApp({
    logLevel: false,
    workerTickMs: 0,
    stepDelayMs: 0,
    validateResponses: true,
    ...opts,
    dataDir,
  });
  const { sqlite } = app.ctx;
  const now = Date.now();
  const seeded = seedDemo(sqlite, { nowMs: now, scenes: opts.scenes ?? 200 });
  const key = seeded.demoKey!;
  createOrganization(sqlite, { id: OTHER.orgId, name: 'Other org' }, now);
  createUser(
    sqlite,
    { id: OTHER.userId, orgId: OTHER.orgId, name: 'Other', email: 'other@example.invalid' },
    now,
  );
  createProject(sqlite, { id: OTHER.projectId, orgId: OTHER.orgId, name: 'Other project' }, now);
  const otherKey = createApiKey(sqlite, { orgId: OTHER.orgId, userId: OTHER.userId }, now);
  return {
    app,
    dataDir,
    key,
    otherKey,
    call({ key: k, headers, ...rest }) {
      const auth = k === null ? {} : { authorization: k ?? key };
      return app.inject({ ...rest, headers: { ...auth, ...(headers ?? {}) } });
    },
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { DEMO };
