/**
 * `eo-server`: the reference service's command line.
 *
 *   eo-server start [--host H] [--port P] [--data-dir D] [--step-delay-ms N] [--asset-origin URL]
 *   eo-server keys create --org ORG --user USER [--label L] [--data-dir D]
 *   eo-server seed [--scenes N] [--data-dir D]
 *
 * Flags fall back to env: EO_HOST, EO_PORT, EO_DATA_DIR, EO_STEP_DELAY_MS, EO_ASSET_ORIGIN.
 * `keys create` prints the key alone on stdout; everything else goes to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OrganisationIdString } from '@eo/domain';
import {
  DEFAULT_SEED_SCENES,
  checkAssetOrigin,
  closeOnSignals,
  createApiKey,
  createOrganization,
  createUser,
  isSeeded,
  openDatabase,
  resolveConfig,
  seedDemo,
  seedDemoWork,
  startServer,
} from '@eo/reference-service';

const USAGE = `usage:
  eo-server start [--host H] [--port P] [--data-dir D] [--step-delay-ms N] [--asset-origin URL]
  eo-server keys create --org ORG --user USER [--label L] [--data-dir D]
  eo-server seed [--scenes N] [--data-dir D]`;

const err = (msg: string) => process.stderr.write(`${msg}\n`);

function fail(msg: string): never {
  err(msg);
  err(USAGE);
  process.exit(2);
}

function intFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    fail(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'step-delay-ms': { type: 'string' },
      'asset-origin': { type: 'string' },
      org: { type: 'string' },
      user: { type: 'string' },
      label: { type: 'string' },
      scenes: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    err(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const dataDir = path.resolve(values['data-dir'] ?? process.env.EO_DATA_DIR ?? '.data');
  const [command, sub] = positionals;

  if (command === 'start') {
    const firstStart = !fs.existsSync(path.join(dataDir, 'eo.sqlite'));
    let assetOrigin = values['asset-origin'] ?? process.env.EO_ASSET_ORIGIN ?? '';
    try {
      assetOrigin = checkAssetOrigin(assetOrigin);
    } catch (e) {
      fail(`--asset-origin: ${(e as Error).message}`);
    }
    const config = resolveConfig({
      dataDir,
      assetOrigin,
      stepDelayMs: intFlag(
        values['step-delay-ms'] ?? process.env.EO_STEP_DELAY_MS,
        'step-delay-ms',
        2000,
      ),
    });
    let demoKey: string | undefined;
    if (firstStart) {
      const db = openDatabase(config.dbFile);
      try {
        err(`First start: seeding demo data into ${dataDir} ...`);
        const seeded = seedDemo(db.sqlite, { nowMs: Date.now(), sites: true });
        demoKey = seeded.demoKey;
        if (seeded.demoKey) {
          err('Demo API key (shown once; create more with `eo-server keys create`):');
          err(`  ${seeded.demoKey}`);
        }
      } finally {
        db.close();
      }
    }
    const server = await startServer(config, {
      host: values.host ?? process.env.EO_HOST ?? '127.0.0.1',
      port: intFlag(values.port ?? process.env.EO_PORT, 'port', 8080),
    });
    closeOnSignals(server, err);
    // The demo organisation's orders and AOIs go through the API, so they live like real ones.
    if (demoKey) await seedDemoWork(server.app, demoKey, Date.now());
    err(
      `EO imagery service listening on ${server.url}  (docs: ${server.url}/docs, OpenAPI: ${server.url}/v0/openapi.json)`,
    );
    return;
  }

  if (command === 'keys' && sub === 'create') {
    if (!values.org || !values.user) fail('keys create needs --org and --user');
    const orgId = OrganisationIdString.safeParse(values.org);
    if (!orgId.success)
      fail(`--org ${JSON.stringify(values.org)}: ${orgId.error.issues[0]!.message}`);
    const db = openDatabase(resolveConfig({ dataDir }).dbFile);
    try {
      const now = Date.now();
      const key = db.sqlite.transaction(() => {
        if (!db.sqlite.prepare('SELECT 1 FROM organizations WHERE id = ?').get(values.org)) {
          createOrganization(db.sqlite, { id: values.org!, name: values.org! }, now);
          err(`created organisation ${values.org}`);
        }
        if (!db.sqlite.prepare('SELECT 1 FROM users WHERE id = ?').get(values.user)) {
          createUser(
            db.sqlite,
            {
              id: values.user!,
              orgId: values.org!,
              name: values.user!,
              email: `${values.user}@example.invalid`,
            },
            now,
          );
          err(`created user ${values.user} in ${values.org}`);
        }
        return createApiKey(
          db.sqlite,
          {
            orgId: values.org!,
            userId: values.user!,
            ...(values.label ? { label: values.label } : {}),
          },
          now,
        );
      })();
      process.stdout.write(`${key}\n`);
    } catch (e) {
      fail(`keys create failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      db.close();
    }
    return;
  }

  if (command === 'seed') {
    const scenes = intFlag(values.scenes, 'scenes', DEFAULT_SEED_SCENES);
    const db = openDatabase(resolveConfig({ dataDir }).dbFile);
    try {
      const wasSeeded = isSeeded(db.sqlite);
      const t0 = Date.now();
      const r = seedDemo(db.sqlite, {
        nowMs: Date.now(),
        scenes,
        onProgress: (n) => err(`  ${n} scenes (${((Date.now() - t0) / 1000).toFixed(1)} s)`),
      });
      err(
        `archive holds ${scenes} scenes: added ${r.scenesAdded} scenes and ${r.catalogAdded} demo catalog records in ${((Date.now() - t0) / 1000).toFixed(1)} s${wasSeeded ? ' (demo organisation already present)' : ''}`,
      );
      if (r.demoKey) err(`Demo API key (shown once): ${r.demoKey}`);
    } finally {
      db.close();
    }
    return;
  }

  fail(`unknown command: ${positionals.join(' ')}`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  err(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
