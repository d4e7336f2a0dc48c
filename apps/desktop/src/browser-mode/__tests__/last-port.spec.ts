/**
 * The port kept for browser mode's next launch: read back only when it is one (hostile or
 * damaged files read as none), written whole, and a folder it cannot be written to only logs.
 * Listening on it, or elsewhere when it is taken: server.spec.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../backend/__tests__/harness';
import { keepPort, readLastPort } from '../last-port';

const root = tempDir('eo-last-port-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("browser mode's last port", () => {
  it('is kept and read back; a second keep of the same port writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(root, 'kept-'));
    expect(readLastPort(dir)).toBeNull();
    const logged: string[] = [];
    keepPort(dir, 47_123, (l) => logged.push(l));
    expect(readLastPort(dir)).toBe(47_123);
    const file = path.join(dir, 'browser-mode-port');
    fs.utimesSync(file, 1, 1);
    keepPort(dir, 47_123, (l) => logged.push(l));
    expect(fs.statSync(file).mtimeMs).toBe(1000);
    keepPort(dir, 50_000, (l) => logged.push(l));
    expect(readLastPort(dir)).toBe(50_000);
    expect(fs.readdirSync(dir)).toEqual(['browser-mode-port']);
    expect(logged).toEqual([]);
  });

  it('reads a damaged, hostile or privileged one as none', () => {
    const dir = fs.mkdtempSync(path.join(root, 'bad-'));
    const file = path.join(dir, 'browser-mode-port');
    for (const text of ['', 'abc', '80', '0', '65536', '-4000', '4000.5', '1e4', ' 4000 4001']) {
      fs.writeFileSync(file, text);
      expect(readLastPort(dir), text).toBeNull();
    }
    fs.writeFileSync(file, '4000' + ' '.repeat(1_000_000));
    expect(readLastPort(dir)).toBeNull();
    fs.rmSync(file);
    fs.mkdirSync(file); // a folder where the file should be
    expect(readLastPort(dir)).toBeNull();
    fs.rmSync(file, { recursive: true });
    fs.writeFileSync(file, '4000\n');
    expect(readLastPort(dir)).toBe(4000);
  });

  it('only logs when the folder cannot be written to', () => {
    const logged: string[] = [];
    keepPort(path.join(root, 'no-such-folder'), 47_124, (l) => logged.push(l));
    expect(logged).toEqual([
      expect.stringContaining('could not keep the port for the next launch'),
    ]);
  });
});
