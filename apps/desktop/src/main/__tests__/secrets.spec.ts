import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// safeStorage as Electron exposes it, with a reversible "encryption" the test can recognise.
const safeStorage = {
  available: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable: vi.fn(() => safeStorage.available),
  encryptString: vi.fn((s: string) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`)),
  decryptString: vi.fn((b: Buffer) => {
    const t = b.toString();
    if (!t.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext');
    return Buffer.from(t.slice(4), 'base64').toString();
  }),
  getSelectedStorageBackend: vi.fn(() => safeStorage.backend),
};
vi.mock('electron', () => ({ safeStorage }));

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-main-secrets-'));
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function make(warn = vi.fn()) {
  const { safeStorage: ss } = await import('electron');
  const { safeStorageSecrets } = await import('../secrets');
  return { secrets: safeStorageSecrets(dir, ss as never, warn), warn };
}

describe('safeStorage secrets', () => {
  it('stores the key encrypted with safeStorage, never in clear, mode 0600', async () => {
    const { secrets } = await make();
    expect(secrets.get()).toBeNull();
    secrets.set('eok_secret_key');
    expect(safeStorage.encryptString).toHaveBeenCalledWith('eok_secret_key');
    const file = path.join(dir, 'api-key.enc');
    expect(fs.readFileSync(file).includes('eok_secret_key')).toBe(false);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(secrets.get()).toBe('eok_secret_key');
    expect(safeStorage.decryptString).toHaveBeenCalled();
    secrets.set(null);
    expect(fs.existsSync(file)).toBe(false);
    expect(secrets.get()).toBeNull();
  });

  it('refuses to store the key when encryption is unavailable (no plain-text fallback)', async () => {
    const { secrets } = await make();
    safeStorage.available = false;
    expect(() => secrets.set('eok_secret_key')).toThrow(/keychain/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('says how it keeps the key: keychain, obfuscated (basic_text) or this session only', async () => {
    const { secrets } = await make();
    expect(secrets.storage()).toBe('os-keychain');
    safeStorage.backend = 'basic_text';
    expect(secrets.storage()).toBe('obfuscated');
    safeStorage.available = false;
    expect(secrets.storage()).toBe('this-session-only');
  });

  it('warns when Linux falls back to basic_text', async () => {
    const { secrets, warn } = await make();
    safeStorage.backend = 'basic_text';
    secrets.set('k');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/obfuscated/));
  });

  it('treats an undecryptable file as no key', async () => {
    const { secrets } = await make();
    fs.writeFileSync(path.join(dir, 'api-key.enc'), 'garbage');
    expect(secrets.get()).toBeNull();
  });
});
