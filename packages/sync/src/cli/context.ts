/**
 * What a command works with, resolved from flags or the environment on demand: the local
 * database (--db / EO_DB), a client on the service (--url / EO_URL, --key / EO_API_KEY, the
 * service profile --dialect / EO_DIALECT), the output format. A command that only reads the
 * mirror never needs the service's settings.
 */
import fs from 'node:fs';
import { createEoClient, keyTransportProblem, type EoClient } from '@eo/api-client';
import { DEFAULT_SERVICE_DIALECT, parseServiceDialect, type ServiceDialect } from '@eo/domain';
import { lockMirror, type MirrorLock } from '../db/mirror-lock';
import { openMirrorDatabase, type MirrorDatabase } from '../db/open';
import { createDriftInbox, type DriftInbox } from '../pull/drift';
import { UsageError, type CommandLine, type OptionName, type OptionValues } from './args';
import { resolvePath, type CliIo } from './io';

/** An operation that could not be done (exit code 1), with a message meant for the user. */
export class CliFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliFailure';
  }
}

export type OutputFormat = 'json' | 'table';

export interface CommandContext {
  readonly io: CliIo;
  readonly values: OptionValues;
  /** Positional arguments after the command's words (`outbox retry <id>` → [id]). */
  readonly operands: readonly string[];
  /** `json` or `table`; default table when stdout is a terminal, JSON otherwise. */
  format(): OutputFormat;
  /**
   * The local database; `create: false` fails when there is none yet. Closed after the command.
   * `hold` (the command's words) takes the mirror's lock first (db/mirror-lock.ts), released
   * after the command: a MirrorInUseError names the program that holds it.
   */
  database(options: { create: boolean; hold?: string }): MirrorDatabase;
  /** A client on the service; a usage error when URL or key is missing. */
  client(): EoClient;
  /** Where the client reports schema drift (`eo sync` hands it to the engine). */
  readonly drift: DriftInbox;
}

export interface CommandSpec {
  /** The words that select it: ['outbox', 'flush']. */
  readonly words: readonly string[];
  /** Names of its positional operands, for usage and arity checks. */
  readonly operands: readonly string[];
  readonly usage: string;
  /** Options it takes besides the settings every command accepts (--db, --url, --key, --help). */
  readonly options: readonly OptionName[];
  run(ctx: CommandContext): Promise<number>;
}

export function makeContext(
  io: CliIo,
  line: CommandLine,
  operands: readonly string[],
): CommandContext & { close(): void } {
  const { values } = line;
  const opened: MirrorDatabase[] = [];
  const locks: MirrorLock[] = [];
  const drift = createDriftInbox();
  return {
    drift,
    io,
    values,
    operands,
    format() {
      const f = values.format ?? (io.stdout.isTTY ? 'table' : 'json');
      if (f !== 'json' && f !== 'table')
        throw new UsageError(`--format must be json or table, got ${JSON.stringify(f)}`);
      return f;
    },
    database({ create, hold }) {
      const given = values.db ?? io.env.EO_DB;
      if (!given) throw new UsageError('no database: pass --db PATH or set EO_DB');
      const file = resolvePath(io, given);
      if (!create && !fs.existsSync(file))
        throw new CliFailure(`no database at ${file}: run \`eo sync\` first`);
      if (hold !== undefined) locks.push(lockMirror(file, { mode: 'cli', command: hold }));
      const db = openMirrorDatabase(file);
      opened.push(db);
      return db;
    },
    client() {
      const url = values.url ?? io.env.EO_URL;
      const key = values.key ?? io.env.EO_API_KEY;
      if (!url) throw new UsageError('no service: pass --url URL or set EO_URL');
      if (!key) throw new UsageError('no API key: set EO_API_KEY (or pass --key)');
      if (!/^https?:\/\/[^/]/i.test(url))
        throw new UsageError(
          '--url (or EO_URL) must be an http(s) URL, e.g. http://127.0.0.1:8080',
        );
      // The key goes with every request: never in clear text across the network.
      const problem = keyTransportProblem(url);
      if (problem) throw new UsageError(`--url (or EO_URL) ${url}: ${problem}`);
      const dialect = dialectOf(values, io);
      return createEoClient({
        baseUrl: url,
        apiKey: key,
        dialect,
        onSchemaDrift: drift.onSchemaDrift,
        // Open values the service profile does not list go out anyway (the service decides);
        // the user hears about it first.
        onRequestWarning: (e) => {
          for (const w of e.warnings) io.stderr.write(`eo: warning: ${w.path}: ${w.message}\n`);
        },
      });
    },
    close() {
      for (const db of opened.splice(0)) db.close();
      for (const lock of locks.splice(0)) lock.release();
    },
  };
}

/**
 * The service profile: --dialect, else EO_DIALECT, else `spec`. No probe: nothing the two services
 * answer tells them apart cheaply and honestly (see packages/api-client/README.md).
 */
export function dialectOf(values: OptionValues, io: CliIo): ServiceDialect {
  const given = values.dialect ?? io.env.EO_DIALECT;
  if (given === undefined || given === '') return DEFAULT_SERVICE_DIALECT;
  try {
    return parseServiceDialect(given);
  } catch (e) {
    const from = values.dialect !== undefined ? '--dialect' : 'EO_DIALECT';
    throw new UsageError(`${from}: ${(e as Error).message}`);
  }
}
