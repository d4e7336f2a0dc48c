/**
 * Two browser modes on one data folder, as real processes (the launcher from its sources): the
 * second refuses before it listens, printing the address of the one that runs; once the first
 * stops, the folder is free again (backend/data-lock.ts, shared with Electron and `eo outbox
 * flush`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { presetSettings, tempDir, TEST_SETTINGS } from '../../backend/__tests__/harness';
import { holdDataFolder } from '../../backend/data-lock';
import { readLastPort } from '../last-port';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const root = tempDir('eo-browser-lock-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** `tsx src/browser-mode/main.ts` on `dataDir`, its output collected. */
function launch(dataDir: string, rendererDir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/browser-mode/main.ts',
      '--data-dir',
      dataDir,
      '--renderer-dir',
      rendererDir,
      '--no-embedded',
    ],
    { cwd: appDir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  /** The address it printed, once it listens (rejects if it ends first). */
  const openUrl = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`ended (${code}) before listening: ${stderr}`)));
  });
  openUrl.catch(() => undefined);
  /** Its backend started: it stops cleanly on SIGTERM from then on. */
  const started = new Promise<void>((resolve) => {
    child.stderr.on('data', () => {
      if (stderr.includes('Stop with Ctrl+C.')) resolve();
    });
    void exited.then(() => resolve());
  });
  return { child, exited, openUrl, started, out: () => ({ stdout, stderr }) };
}

describe('browser mode on a data folder another instance holds', () => {
  it('refuses, printing the running one’s address; starts once it stopped', async () => {
    const dataDir = path.join(root, 'data');
    const rendererDir = path.join(root, 'renderer');
    fs.mkdirSync(rendererDir, { recursive: true });
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><p>app</p>');
    presetSettings(dataDir, TEST_SETTINGS);

    const first = launch(dataDir, rendererDir);
    let url = '';
    try {
      url = await first.openUrl;
      const second = launch(dataDir, rendererDir);
      expect(await second.exited).toBe(1);
      const { stdout, stderr } = second.out();
      expect(stdout).toBe(''); // never listened
      expect(stderr).toContain('EO Field Desk is already running on this data folder.');
      expect(stderr).toContain(
        `is in use by EO Field Desk in browser mode (pid ${first.child.pid}, since `,
      );
      expect(stderr).toContain(`open at ${url}`);
    } finally {
      await first.started;
      first.child.kill('SIGTERM');
      expect(await first.exited, first.out().stderr).toBe(0);
    }
    // Stopped: the folder is free (and its note gone), and it kept its port for the next launch.
    holdDataFolder(dataDir, 'browser').release();
    expect(readLastPort(dataDir)).toBe(Number(new URL(url).port));
  }, 90_000);
});
