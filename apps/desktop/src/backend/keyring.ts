/**
 * The API keys the app keeps: one per service (its origin, or `embedded`), and one entered
 * before any service was set. Switching service A -> B -> A finds A's key again, and B never
 * sees it. They are kept together as one versioned JSON value in the secrets store (Electron:
 * encrypted with safeStorage in `api-key.enc`; browser mode: the owner-only `api-key` file), read
 * through `KeyringValue` on every read (as mattermost/desktop reads its persisted config).
 *
 * A secret written before keyrings is a bare key: it migrates to the keyring of the service it
 * was bound to (the store's `apiKeyBinding`, or the configured service for a key older still;
 * one that went over plain http to another machine is dropped). A value that does not read
 * (damaged, or a newer version's) reads as no key at all: nothing is sent anywhere, Settings
 * asks for a key, and the next key entered writes a fresh keyring.
 */
import { keyTransportProblem, originOf } from '@eo/api-client';
import type { DesktopStore } from './local-store';
import type { Secrets } from './secrets';
import { KEYRING_MAX_SERVICES, KeyringValue } from './stored-state';

const EMPTY: KeyringValue = { version: 1, keys: {}, unbound: null };

type Read = { readonly ring: KeyringValue } | { readonly bareKey: string };

function read(raw: string | null): Read {
  if (raw === null) return { ring: EMPTY };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // A keyring cut short (a damaged file) is not a key: keys never start with a brace.
    return raw.trimStart().startsWith('{') ? { ring: EMPTY } : { bareKey: raw };
  }
  // A key may itself read as JSON ("12345"); a keyring is always an object.
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { bareKey: raw };
  const parsed = KeyringValue.safeParse(json);
  return { ring: parsed.success ? parsed.data : EMPTY };
}

export interface Keyring {
  /** The key kept for `service` (an origin or `embedded`). */
  get(service: string): string | null;
  /** Keeps `key` for `service`; null forgets it. */
  set(service: string, key: string | null): void;
  /** A key entered before any service was set. */
  unbound(): string | null;
  setUnbound(key: string | null): void;
  /** The services a key is kept for, in the order they were first given one. */
  services(): string[];
}

/**
 * The keyring over `secrets`. A bare key left by an older version is migrated first (so every
 * reader, the launch's embedded check included, sees a keyring).
 */
export function openKeyring(
  secrets: Secrets,
  store: DesktopStore,
  /** What a key entered with no service URL is for (`embedded` when that service runs). */
  noServiceBinding: string | null,
): Keyring {
  function current(): KeyringValue {
    const r = read(secrets.get());
    return 'ring' in r ? r.ring : migrate(r.bareKey);
  }

  function write(ring: KeyringValue): void {
    const empty = Object.keys(ring.keys).length === 0 && ring.unbound === null;
    secrets.set(empty ? null : JSON.stringify(ring));
  }

  function migrate(bareKey: string): KeyringValue {
    let binding = store.keyBinding();
    if (binding === undefined) {
      // Older still: the key was used with the configured service.
      const url = store.settings().serviceUrl;
      if (url !== null && keyTransportProblem(url)) {
        write(EMPTY);
        return EMPTY;
      }
      binding = url === null ? noServiceBinding : originOf(url);
    }
    const ring: KeyringValue =
      binding === null
        ? { ...EMPTY, unbound: bareKey }
        : { ...EMPTY, keys: { [binding]: bareKey } };
    write(ring);
    return ring;
  }

  current();
  return {
    get: (service) => current().keys[service] ?? null,
    set(service, key) {
      const ring = current();
      const keys = { ...ring.keys };
      if (key === null) delete keys[service];
      else keys[service] = key;
      if (Object.keys(keys).length > KEYRING_MAX_SERVICES) {
        // The oldest service gives its place (a field team does not juggle 64 services).
        delete keys[Object.keys(keys)[0] as string];
      }
      write({ ...ring, keys });
    },
    unbound: () => current().unbound,
    setUnbound: (key) => write({ ...current(), unbound: key }),
    services: () => Object.keys(current().keys),
  };
}

/** The key of one service as a `Secrets` (what the embedded service's start-up stores its key in). */
export function keySlot(ring: Keyring, service: string, secrets: Secrets): Secrets {
  return {
    get: () => ring.get(service),
    set: (key) => ring.set(service, key),
    storage: () => secrets.storage(),
  };
}
