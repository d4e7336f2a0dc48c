/** Runs the CLI in-process with in-memory streams: exit code, stdout and stderr as text. */
import type { CliIo } from '../io';
import { runEo } from '../run';

export interface EoRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface EoRunOptions {
  readonly env?: Record<string, string | undefined>;
  /** Which streams claim to be terminals (progress bars, table output). */
  readonly tty?: { readonly stdout?: boolean; readonly stderr?: boolean };
  readonly cwd?: string;
  readonly stdin?: string;
  readonly signal?: AbortSignal;
}

export async function eo(argv: readonly string[], options: EoRunOptions = {}): Promise<EoRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: options.env ?? {},
    stdout: { write: (t: string) => (stdout += t), isTTY: options.tty?.stdout ?? false },
    stderr: { write: (t: string) => (stderr += t), isTTY: options.tty?.stderr ?? false },
    cwd: options.cwd,
    readStdin: () => Promise.resolve(options.stdin ?? ''),
    signal: options.signal,
  };
  const code = await runEo(argv, io);
  return { code, stdout, stderr };
}
