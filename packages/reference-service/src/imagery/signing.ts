/**
 * Signed asset URLs: `<path>?expires=<unix s>&org=<organisation>&signature=<base64url
 * HMAC-SHA256>`, so a client fetches pictures without its API key (and the key is not accepted
 * instead). `org` names the organisation the URL was issued to: heavy work behind the URL (a
 * first render) is queued under its share of the render pool (`src/render/`). The secret is
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

/**
 * Expiries move in steps of an hour counted from the signer's start, at least
 * `SIGNED_URL_MIN_VALIDITY_S` ahead: a URL stays the same for an hour, so caches keyed by URL
 * keep hitting. Counting from the start (not from wall-clock hours) means a service never
 * changes its URLs within its first hour: two reads a second apart can't straddle a boundary,
 * so clients and tests that compare one read with another see the same hrefs.
 */
const EXPIRY_STEP_MS = 3_600_000;

export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    /** Epoch milliseconds. */
    private readonly nowMs: () => number,
    /** Prefix of every signed URL: '' (root-relative, same origin) or `https://assets.example`. */
    private readonly origin = '',
  ) {
    this.startMs = nowMs();
  }

  private readonly startMs: number;

  /** Over the path, the expiry and the organisation (a path never holds a raw newline). */
  private mac(pathname: string, expires: number, org: string | undefined): string {
    const text = org === undefined ? `${pathname}\n${expires}` : `${pathname}\n${expires}\n${org}`;
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }

  /** When a URL signed now expires (unix seconds). */
  expiresAt(): number {
    const elapsed = Math.max(0, this.nowMs() - this.startMs);
    const stepStart = this.startMs + Math.floor(elapsed / EXPIRY_STEP_MS) * EXPIRY_STEP_MS;
    // The step's end plus the minimum: at least the minimum ahead of any moment in the step.
    return Math.ceil((stepStart + EXPIRY_STEP_MS) / 1000) + SIGNED_URL_MIN_VALIDITY_S;
  }

  /**
   * The signed URL of a root-relative path (already percent-encoded), issued to `org` (the
   * organisation whose request carried it; without one, the work behind the URL is queued in
   * a share of its own, common to every such URL).
   */
  sign(pathname: string, expires = this.expiresAt(), org?: string): string {
    const { expires: e, org: o, signature: s } = SIGNED_URL_PARAMS;
    const owner = org === undefined ? '' : `&${o}=${encodeURIComponent(org)}`;
    return `${this.origin}${pathname}?${e}=${expires}${owner}&${s}=${this.mac(pathname, expires, org)}`;
  }

  /** The organisation a URL was issued to ('' for none); meaningful once `verify` said ok. */
  ownerOf(query: Record<string, unknown>): string {
    const org = query[SIGNED_URL_PARAMS.org];
    return typeof org === 'string' ? org : '';
  }

  /** Checks the query of a request for `pathname` (as received, percent-encoded). */
  verify(pathname: string, query: Record<string, unknown>): Verdict {
    const expires = query[SIGNED_URL_PARAMS.expires];
    const signature = query[SIGNED_URL_PARAMS.signature];
    const org = query[SIGNED_URL_PARAMS.org];
    if (typeof expires !== 'string' || typeof signature !== 'string') return 'missing';
    if (!/^\d{1,12}$/.test(expires)) return 'bad-signature';
    if (org !== undefined && typeof org !== 'string') return 'bad-signature';
    const want = Buffer.from(this.mac(pathname, Number(expires), org));
    const got = Buffer.from(signature);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'bad-signature';
    if (Number(expires) * 1000 <= this.nowMs()) return 'expired';
    return 'ok';
  }
}
