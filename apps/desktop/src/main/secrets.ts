/**
 * The API key at rest in Electron: encrypted with safeStorage (Keychain on macOS, DPAPI on
 * Windows, libsecret/kwallet on Linux) in `<userData>/api-key.enc`. We refuse to store it when
 * encryption is unavailable rather than fall back to plain text; on Linux without a keyring,
 * Electron's `basic_text` backend is only obfuscation, so we warn.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Secrets } from '../backend/secrets';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export function safeStorageSecrets(
  dir: string,
  safeStorage: SafeStorageLike,
  warn: (msg: string) => void = console.warn,
): Secrets {
  const file = path.join(dir, 'api-key.enc');
  return {
    get() {
      let data: Buffer;
      try {
        data = fs.readFileSync(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
      if (!safeStorage.isEncryptionAvailable()) return null;
      try {
        return safeStorage.decryptString(data);
      } catch {
        // Encrypted by another user or machine: as if no key were stored.
        return null;
      }
    },
    storage() {
      // What set() would do now: refuse (the backend keeps the key for this session only),
      // obfuscate (basic_text) or encrypt with the OS keychain.
      if (!safeStorage.isEncryptionAvailable()) return 'this-session-only';
      return safeStorage.getSelectedStorageBackend?.() === 'basic_text'
        ? 'obfuscated'
        : 'os-keychain';
    },
    set(key) {
      if (key === null) {
        fs.rmSync(file, { force: true });
        return;
      }
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          'The system keychain is not available: the API key cannot be stored encrypted.',
        );
      }
      if (safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
        warn(
          'No system keyring found: the API key is only obfuscated on disk (Electron basic_text).',
        );
      }
      // Owner-only whatever the umask (main does not load @eo/sync: it holds native modules).
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
      const tmp = `${file}.tmp`;
      fs.writeFileSync(tmp, safeStorage.encryptString(key), { mode: 0o600 });
      fs.chmodSync(tmp, 0o600);
      fs.renameSync(tmp, file);
    },
  };
}
