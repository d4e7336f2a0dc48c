/**
 * Where the API key lives. The backend only sees this interface: Electron stores the key with
 * safeStorage (src/main/secrets.ts); browser mode, which has no OS keychain, keeps it in a file
 * readable only by the user (mode 0600) in the data dir. The key never leaves the backend.
 */
import { makePrivateDir } from '@eo/sync';
import type { KeyStorage } from '../shared/contract';
import fs from 'node:fs';
import path from 'node:path';

export interface Secrets {
  get(): string | null;
  /** null forgets the stored key. */
  set(key: string | null): void;
  /** How a key is kept at rest here (Settings says it in words). */
  storage(): KeyStorage;
}

/** Browser mode: `<dataDir>/api-key` with mode 0600 (plain text: documented in the README). */
export function fileSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'api-key');
  return {
    get() {
      try {
        const key = fs.readFileSync(file, 'utf8').trim();
        return key === '' ? null : key;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    set(key) {
      if (key === null) {
        fs.rmSync(file, { force: true });
        return;
      }
      makePrivateDir(dataDir, { own: true });
      // Write a fresh file so its mode is 0600 from the start (no readable window).
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, key, { mode: 0o600 });
      fs.chmodSync(tmp, 0o600);
      fs.renameSync(tmp, file);
    },
    storage: () => 'owner-only-file',
  };
}

/** Tests and the embedded-service bootstrap: a key held in memory only. */
export function memorySecrets(
  initial: string | null = null,
  storage: KeyStorage = 'this-session-only',
): Secrets {
  let key = initial;
  return {
    get: () => key,
    set: (k) => {
      key = k;
    },
    storage: () => storage,
  };
}
