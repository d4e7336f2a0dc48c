/**
 * The keyring at rest: one versioned value in the secrets store (here browser mode's owner-only
 * file), read through its schema. A bare key left by an older version migrates to the keyring of
 * the service it was bound to; a damaged or newer value reads as no key (sent nowhere).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKeyring } from '../keyring';
import { openDesktopStore } from '../local-store';
import { fileSecrets } from '../secrets';
import { tempDir } from './harness';

const A = 'https://a.example.org';
const B = 'https://b.example.org:8443';

function fixture(setup: (store: ReturnType<typeof openDesktopStore>) => void, raw: string) {
  const dataDir = tempDir('eo-desktop-keyring-');
  const store = openDesktopStore(dataDir);
  setup(store);
  fs.writeFileSync(path.join(dataDir, 'api-key'), raw, { mode: 0o600 });
  const secrets = fileSecrets(dataDir);
  return {
    dataDir,
    store,
    secrets,
    stored: () => fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8'),
  };
}

describe('the keyring at rest', () => {
  it('an old single-key file migrates to the keyring of its origin', () => {
    const f = fixture((s) => s.saveKeyBinding(A), 'eok_old_a');
    try {
      const ring = openKeyring(f.secrets, f.store, null);
      expect(JSON.parse(f.stored())).toEqual({
        version: 1,
        keys: { [A]: 'eok_old_a' },
        unbound: null,
      });
      expect(ring.get(A)).toBe('eok_old_a');
      expect(ring.get(B)).toBeNull();
      // B gets its own key, A keeps its own.
      ring.set(B, 'eok_b');
      expect(ring.services()).toEqual([A, B]);
      expect(openKeyring(fileSecrets(f.dataDir), f.store, null).get(A)).toBe('eok_old_a');
      expect(fs.statSync(path.join(f.dataDir, 'api-key')).mode & 0o777).toBe(0o600);
    } finally {
      f.store.close();
    }
  });

  it('a key older still goes to the configured service; one bound to nothing waits unbound', () => {
    const older = fixture(
      (s) => s.saveSettings({ ...s.settings(), serviceUrl: `${B}/api/v1` }),
      'eok_oldest',
    );
    try {
      expect(openKeyring(older.secrets, older.store, null).get(B)).toBe('eok_oldest');
    } finally {
      older.store.close();
    }
    const unbound = fixture((s) => s.saveKeyBinding(null), 'eok_before_any_service');
    try {
      const ring = openKeyring(unbound.secrets, unbound.store, null);
      expect(ring.unbound()).toBe('eok_before_any_service');
      expect(ring.services()).toEqual([]);
    } finally {
      unbound.store.close();
    }
    // A key that reads as JSON (all digits) is still a key.
    const digits = fixture((s) => s.saveKeyBinding(A), '123456');
    try {
      expect(openKeyring(digits.secrets, digits.store, null).get(A)).toBe('123456');
    } finally {
      digits.store.close();
    }
  });

  it('a damaged or newer keyring reads as no key; the next key entered writes a fresh one', () => {
    for (const raw of [
      JSON.stringify({ version: 2, keys: { [A]: 'eok_future' }, unbound: null }),
      JSON.stringify({ version: 1, keys: { [A]: 42 }, unbound: null }),
      JSON.stringify({ version: 1, keys: { [A]: 'x'.repeat(5000) }, unbound: null }),
      '{"version":1,',
    ]) {
      const f = fixture((s) => s.saveKeyBinding(A), raw);
      try {
        const ring = openKeyring(f.secrets, f.store, null);
        expect(ring.get(A), raw.slice(0, 40)).toBeNull();
        expect(ring.services()).toEqual([]);
        ring.set(B, 'eok_b');
        expect(JSON.parse(f.stored())).toEqual({
          version: 1,
          keys: { [B]: 'eok_b' },
          unbound: null,
        });
      } finally {
        f.store.close();
      }
    }
  });
});
