/**
 * Signed asset URLs: `<path>?expires=<unix s>&signature=<base64url HMAC-SHA256>`, so a client
 * fetches pictures without its API key (and the key is not accepted instead). The secret is
 * one per data dir, made on first use and kept owner-only beside the database.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SIGNED_URL_MIN_VALIDITY_S, SIGNED_URL_PARAMS } from '@eo/domain';

export const SIGNING_KEY_FILE = 'asset-signing.key';
const SECRET_BYTES = 32;

/** The data dir's secret: read, or made once (exclusive create: two starts never disagree). */
export function loadSigningSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(SECRET_BYTES), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const secret = fs.readFileSync(file);
  if (secret.length !== SECRET_BYTES)
    throw new Error(`${SIGNING_KEY_FILE} in the data dir holds ${secret.length} bytes, not 32`);
  return secret;
}

export type Verdict = 'ok' | 'missing' | 'expired' | 'bad-signature';

/** Expiries are whole hours, at least `SIGNED_URL_MIN_VALIDITY_S` ahead: a URL stays the same for an hour, so caches keyed by URL keep hitting. */
const EXPIRY_STEP_S = 3600;

export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    /** Epoch milliseconds. */
    private readonly nowMs: () => number,
    /** Prefix of every signed URL: '' (root-relative, same origin) or `https://assets.example`. */
    private readonly origin = '',
  ) {}

  private mac(pathname: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${pathname}\n${expires}`).digest('base64url');
  }

  /** When a URL signed now expires (unix seconds). */
  expiresAt(): number {
    const min = Math.ceil(this.nowMs() / 1000) + SIGNED_URL_MIN_VALIDITY_S;
    return Math.ceil(min / EXPIRY_STEP_S) * EXPIRY_STEP_S;
  }

  /** The signed URL of a root-relative path (already percent-encoded). */
  sign(pathname: string, expires = this.expiresAt()): string {
    const { expires: e, signature: s } = SIGNED_URL_PARAMS;
    return `${this.origin}${pathname}?${e}=${expires}&${s}=${this.mac(pathname, expires)}`;
  }

  /** Checks the query of a request for `pathname` (as received, percent-encoded). */
  verify(pathname: string, query: Record<string, unknown>): Verdict {
    const expires = query[SIGNED_URL_PARAMS.expires];
    const signature = query[SIGNED_URL_PARAMS.signature];
    if (typeof expires !== 'string' || typeof signature !== 'string') return 'missing';
    if (!/^\d{1,12}$/.test(expires)) return 'bad-signature';
    const want = Buffer.from(this.mac(pathname, Number(expires)));
    const got = Buffer.from(signature);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'bad-signature';
    if (Number(expires) * 1000 <= this.nowMs()) return 'expired';
    return 'ok';
  }
}
