/** The real `eo` process (bin/eo.js, tsx in-process), for the few tests that need one. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const EO_BIN = fileURLToPath(new URL('../../../bin/eo.js', import.meta.url));

export interface EoProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** Resolves when a complete stderr line matches (false if the process ends first). */
  waitForLine(match: (line: string) => boolean): Promise<boolean>;
}

export function spawnEo(args: readonly string[], env: Record<string, string>): EoProcess {
  const child = spawn(process.execPath, [EO_BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const watchers: Array<{ match: (l: string) => boolean; resolve: (v: boolean) => void }> = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    err += c;
    const lines = (partial + c).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      for (let i = watchers.length - 1; i >= 0; i--) {
        if (!watchers[i]!.match(line)) continue;
        watchers[i]!.resolve(true);
        watchers.splice(i, 1);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      for (const w of watchers.splice(0)) w.resolve(false);
      resolve({ code, signal });
    }),
  );
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitForLine: (match) =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve(false)
        : new Promise((resolve) => watchers.push({ match, resolve })),
  };
}
