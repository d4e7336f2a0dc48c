/**
 * `eo`: the command line over @eo/sync, for headless field laptops, scripts and our own fault
 * tests. `runEo(argv, io)` is the whole CLI as a function (tests call it in-process); `main.ts`
 * binds it to the process.
 *
 * Exit codes: 0 ok, 1 the operation failed, 2 usage error (usage text on stderr).
 * The API key is never printed: both output streams mask it.
 */
import path from 'node:path';
import { EoClientError } from '@eo/api-client';
import { diskFullMessage, isDiskFull } from '../db/disk-full';
import { MirrorInUseError } from '../db/mirror-lock';
import { OutboxInputError, OutboxStateError } from '../outbox/index';
import { checkOptions, parseCommandLine, UsageError, type CommandLine } from './args';
import { CliFailure, makeContext, type CommandSpec } from './context';
import { EXIT, redacting, resolvePath, type CliIo, type OutputStream } from './io';
import { downloadCommand } from './download';
import { exportAoisCommand, exportOrdersCommand } from './export';
import { importCommand } from './import';
import { outboxAddCommand } from './outbox-add';
import {
  outboxCancelCommand,
  outboxConfirmCommand,
  outboxResendCommand,
  outboxRetryCommand,
  outboxTakeBackCommand,
} from './outbox-entry';
import { outboxHandoverExportCommand, outboxHandoverImportCommand } from './outbox-handover';
import { outboxQuoteCommand } from './order-quotes';
import { outboxFlushCommand } from './outbox-flush';
import { outboxListCommand } from './outbox-list';
import { packageExportCommand } from './package-export';
import { packageImportCommand } from './package-import';
import { searchCommand } from './search';
import { statusCommand } from './status';
import { syncCommand } from './sync';

export const COMMANDS: readonly CommandSpec[] = [
  syncCommand,
  searchCommand,
  outboxListCommand,
  outboxAddCommand,
  outboxFlushCommand,
  outboxRetryCommand,
  outboxCancelCommand,
  outboxConfirmCommand,
  outboxResendCommand,
  outboxTakeBackCommand,
  outboxHandoverExportCommand,
  outboxHandoverImportCommand,
  outboxQuoteCommand,
  statusCommand,
  exportOrdersCommand,
  exportAoisCommand,
  importCommand,
  packageExportCommand,
  packageImportCommand,
  downloadCommand,
];

export const USAGE = `usage:
${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}

every command: --db PATH (or EO_DB), -h/--help
  --url URL (or EO_URL), --key KEY (or EO_API_KEY; the env keeps it out of ps): used by sync, outbox flush, download
  --dialect spec|provider-v0 (or EO_DIALECT; default spec): the service's request shapes and reads
output: --format json|table (default: table on a terminal, JSON otherwise); search and export: geojson|csv|kml|kmz|shp|gpkg (kmz, shp, gpkg with --out)
exit codes: 0 ok, 1 operation failed, 2 usage error`;

/** Settings every command accepts (a script can pass the same ones to each); the rest are per command. */
const GLOBAL_OPTIONS = ['db', 'url', 'key', 'dialect', 'help'] as const;

function findCommand(positionals: readonly string[]): CommandSpec | undefined {
  return COMMANDS.find((c) => c.words.every((w, i) => positionals[i] === w));
}

function writeUsageError(
  stderr: OutputStream,
  e: UsageError,
  usage: string,
  prefix = 'eo',
): number {
  stderr.write(`${prefix}: ${e.message}\n`);
  for (const d of e.details) stderr.write(`  ${d.path || '(root)'}: ${d.message}\n`);
  stderr.write(`${usage}\n`);
  return EXIT.usage;
}

/** Errors a command let through, as the user should see them, and the exit code. */
function report(
  stderr: OutputStream,
  spec: CommandSpec,
  e: unknown,
  debug: boolean,
  dataDir: string,
): number {
  const usage = `usage: ${spec.usage}`;
  const prefix = `eo ${spec.words.join(' ')}`;
  if (e instanceof UsageError) return writeUsageError(stderr, e, usage, prefix);
  if (e instanceof OutboxInputError) {
    // Field by field, as the domain schema reports them; nothing was queued.
    const title = e.message.split(':')[0] ?? 'invalid input';
    const error = new UsageError(`${title}; nothing queued`, e.details);
    return writeUsageError(stderr, error, usage, prefix);
  }
  if (
    e instanceof OutboxStateError ||
    e instanceof CliFailure ||
    e instanceof EoClientError ||
    e instanceof MirrorInUseError
  ) {
    stderr.write(`${prefix}: ${e.message}\n`);
    return EXIT.failed;
  }
  if (isDiskFull(e)) {
    stderr.write(`${prefix}: ${diskFullMessage(dataDir)}\n`);
    return EXIT.failed;
  }
  const message = e instanceof Error ? e.message : String(e);
  stderr.write(`${prefix}: unexpected error: ${message}\n`);
  if (debug && e instanceof Error && e.stack) stderr.write(`${e.stack}\n`);
  return EXIT.failed;
}

export async function runEo(argv: readonly string[], io: CliIo): Promise<number> {
  // Masking starts before anything can be printed, with whichever key is in use.
  const secrets = [keyIn(argv), io.env.EO_API_KEY];
  const out: CliIo = {
    ...io,
    stdout: redacting(io.stdout, secrets),
    stderr: redacting(io.stderr, secrets),
  };
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (e) {
    if (e instanceof UsageError) return writeUsageError(out.stderr, e, USAGE);
    throw e;
  }
  const { positionals } = line;
  if (positionals.length === 0 || positionals[0] === 'help') {
    const asked = line.values.help === true || positionals[0] === 'help';
    (asked ? out.stdout : out.stderr).write(`${USAGE}\n`);
    return asked ? EXIT.ok : EXIT.usage;
  }
  const spec = findCommand(positionals);
  if (!spec) {
    return writeUsageError(
      out.stderr,
      new UsageError(`unknown command: ${positionals.join(' ')}`),
      USAGE,
    );
  }
  if (line.values.help) {
    out.stdout.write(`usage: ${spec.usage}\n`);
    return EXIT.ok;
  }
  const operands = positionals.slice(spec.words.length);
  const ctx = makeContext(out, line, operands);
  try {
    checkOptions(line, [...spec.options, ...GLOBAL_OPTIONS]);
    if (operands.length !== spec.operands.length) {
      throw new UsageError(
        operands.length < spec.operands.length
          ? `missing <${spec.operands[operands.length]}>`
          : `unexpected argument: ${operands.slice(spec.operands.length).join(' ')}`,
      );
    }
    return await spec.run(ctx);
  } catch (e) {
    // The disk that filled is the database's (its folder), else the working folder's.
    const db = line.values.db ?? io.env.EO_DB;
    const dataDir = path.dirname(resolvePath(io, db ?? './eo'));
    return report(out.stderr, spec, e, Boolean(io.env.EO_DEBUG), dataDir);
  } finally {
    ctx.close();
  }
}

/** The value of `--key K` / `--key=K`, read before parsing so even a parse error is masked. */
function keyIn(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a === '--key') return argv[i + 1];
    if (a.startsWith('--key=')) return a.slice('--key='.length);
  }
  return undefined;
}
