/**
 * What a command sees of the world: arguments, environment, output streams, a cancel signal.
 * The process entry (`main.ts`) passes the real ones; tests pass in-memory streams, so every
 * command runs in-process exactly as it does from a shell.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The part of a writable stream the CLI uses (process.stdout and process.stderr fit). */
export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Relative paths (--db, --file) resolve against it. Default: process.cwd(). */
  readonly cwd?: string | undefined;
  /** Reads standard input to its end (`--file -`). */
  readonly readStdin?: (() => Promise<string>) | undefined;
  /** Fires on Ctrl-C / SIGTERM: a sync or flush stops at its next step and keeps what it committed. */
  readonly signal?: AbortSignal | undefined;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The smallest secret worth masking (masking a one-letter "key" would garble every line). */
const MIN_SECRET_LENGTH = 4;

/**
 * A stream that masks the secrets wherever they appear: the API key is never printed, whatever
 * message (ours, the client's, an echo in an error body) ends up carrying it.
 */
export function redacting(
  stream: OutputStream,
  secrets: ReadonlyArray<string | undefined>,
): OutputStream {
  const masked = secrets
    .filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH)
    // Longest first: a key that contains another is masked whole.
    .sort((a, b) => b.length - a.length);
  if (masked.length === 0) return stream;
  return {
    write: (text: string) =>
      stream.write(masked.reduce((t, secret) => t.split(secret).join('[redacted]'), text)),
    isTTY: stream.isTTY,
    columns: stream.columns,
  };
}

export function resolvePath(io: CliIo, file: string): string {
  return path.resolve(io.cwd ?? process.cwd(), file);
}

export function readTextFile(io: CliIo, file: string): Promise<string> {
  if (file === '-') {
    if (!io.readStdin) return Promise.resolve('');
    return io.readStdin();
  }
  return fs.promises.readFile(resolvePath(io, file), 'utf8');
}
