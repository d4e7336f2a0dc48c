/**
 * The provider's published document (`shared/spec/real-service/openapi.json`, beside the repo)
 * served by Prism on 127.0.0.1 (a free port), as a contract-test stand-in for the real service:
 * static examples, or `-d` data generated from the schemas (deterministic per `--seed`). Started and stopped by
 * the test; the start wait is bounded and says what never happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const DOCUMENT_IN_SHARED = path.join('shared', 'spec', 'real-service', 'openapi.json');

/**
 * `shared/` sits beside the repository root on dev machines and in CI; a clone elsewhere finds
 * it in the nearest ancestor that has it, or is told by `EO_REAL_SERVICE_DOCUMENT`.
 */
function findRealServiceDocument(): { found: string | undefined; looked: string[] } {
  const fromEnv = process.env['EO_REAL_SERVICE_DOCUMENT'];
  if (fromEnv) return { found: fs.existsSync(fromEnv) ? fromEnv : undefined, looked: [fromEnv] };
  const looked: string[] = [];
  for (let dir = here; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DOCUMENT_IN_SHARED);
    looked.push(candidate);
    if (fs.existsSync(candidate)) return { found: candidate, looked };
    if (path.dirname(dir) === dir) return { found: undefined, looked };
  }
}

export interface PrismOptions {
  /** Generate data from the schemas (`-d`) with this seed; static examples when absent. */
  readonly seed?: string | undefined;
  /** Longest wait for "Prism is listening". Default 45 s (the machine may be busy). */
  readonly startTimeoutMs?: number | undefined;
}

export interface RunningPrism {
  readonly url: string;
  readonly mode: string;
  close(): Promise<void>;
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['prism']!;
  return path.join(path.dirname(pkgFile), bin);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startPrism(options: PrismOptions = {}): Promise<RunningPrism> {
  const { found: document, looked } = findRealServiceDocument();
  if (document === undefined) {
    throw new Error(
      `the real service's document is not at ${looked.join(', ')} (set EO_REAL_SERVICE_DOCUMENT to its path)`,
    );
  }
  const args = [prismBin(), 'mock', '-h', '127.0.0.1', '-p', '0', document];
  if (options.seed !== undefined) args.push('-d', '--seed', options.seed);
  const mode = options.seed === undefined ? 'static examples' : `dynamic, seed ${options.seed}`;
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let log = '';
  const timeoutMs = options.startTimeoutMs ?? 45_000;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `Prism (${mode}) did not say "Prism is listening" within ${timeoutMs} ms; last output:\n${log.slice(-2000)}`,
            ),
          ),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        const m = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            `Prism (${mode}) exited (${code ?? signal}) before listening:\n${log.slice(-2000)}`,
          ),
        );
      });
    });
    // Keep draining its request log so a full pipe never stalls it.
    child.stdout!.removeAllListeners('data').resume();
    child.stderr!.removeAllListeners('data').resume();
    return { url, mode, close: () => stop(child) };
  } catch (e) {
    await stop(child);
    throw e;
  }
}
