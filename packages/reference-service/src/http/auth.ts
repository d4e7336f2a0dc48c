/**
 * API key authentication. The spec shows `Authorization: <API_KEY>` with no scheme word; we
 * accept the bare key and also `Bearer <key>` / `ApiKey <key>` (documented in the README).
 * Keys are stored as sha256 hashes; each belongs to a user in an organisation, and every read
 * and write is scoped to that organisation.
 */
import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ApiError } from './errors';

export interface Principal {
  readonly orgId: string;
  readonly userId: string;
  readonly keyId: string;
}

export const KEY_PREFIX = 'eok_';

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random key: `eok_` + 40 base62-ish characters (~238 bits). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(30).toString('base64url');
}

export function keyFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const m = /^(?:bearer|apikey|api-key|token)\s+(.+)$/i.exec(trimmed);
  const key = (m ? m[1]! : trimmed).trim();
  return key.length > 0 ? key : undefined;
}

export function makeAuthenticator(sqlite: Database.Database) {
  const lookup = sqlite.prepare<[string], { id: string; org_id: string; user_id: string }>(
    'SELECT id, org_id, user_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
  );
  return function authenticate(header: string | undefined): Principal {
    const key = keyFromHeader(header);
    if (!key) {
      throw new ApiError(
        401,
        'unauthorized',
        'Missing API key: send it in the Authorization header',
      );
    }
    const row = lookup.get(hashKey(key));
    if (!row) throw new ApiError(401, 'unauthorized', 'Unknown or revoked API key');
    return { orgId: row.org_id, userId: row.user_id, keyId: row.id };
  };
}
