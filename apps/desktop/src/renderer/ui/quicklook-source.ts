/**
 * Where the renderer loads a mirrored quicklook from (shared/quicklooks.ts): Electron's
 * `eo-quicklook:` scheme, or browser mode's GET route with the page's token in the query (an
 * `<img>` sends no header). Plain URLs, so `<img loading="lazy">` and the map's images load
 * them like any picture: no base64 through the contract, no API key, offline from the mirror.
 */
import {
  QUICKLOOK_HTTP_PREFIX,
  QUICKLOOK_SCHEME,
  quicklookPath,
  type PictureVariant,
} from '../../shared/quicklooks';

export type QuicklookUrl = (recordId: string, variant: PictureVariant) => string;

export function electronQuicklookUrl(recordId: string, variant: PictureVariant): string {
  return `${QUICKLOOK_SCHEME}://${quicklookPath(variant, recordId)}`;
}

export function browserQuicklookUrl(token: string, baseUrl = ''): QuicklookUrl {
  return (recordId, variant) =>
    `${baseUrl}${QUICKLOOK_HTTP_PREFIX}${quicklookPath(variant, recordId)}?token=${encodeURIComponent(token)}`;
}

let current: QuicklookUrl | null = null;

/** Set once at start-up (main.ts) from the chosen bridge, or by a test. */
export function provideQuicklookUrl(fn: QuicklookUrl | null): void {
  current = fn;
}

/** The URL of a record's quicklook; null when no source was provided (nothing is shown). */
export function quicklookUrl(recordId: string, variant: PictureVariant): string | null {
  return current ? current(recordId, variant) : null;
}
