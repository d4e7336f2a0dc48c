/**
 * The URL forms of a mirrored quicklook (see quicklooks.ts), without zod: browser mode's server
 * and Electron's main split these paths before the contract's schemas are loaded (cold start:
 * the launcher listens without loading zod or @eo/domain's schemas).
 */
import type { QuicklookVariant } from '@eo/domain';

export const QUICKLOOK_SCHEME = 'eo-quicklook';
export const QUICKLOOK_HTTP_PREFIX = '/api/quicklooks/';

/** A mirrored index map of a visualization for one date: `index-<YYYY-MM-DD>` as the variant. */
export type IndexMapPictureVariant = `index-${string}`;

/** What the picture URLs name: a quicklook variant or an index map's date. */
export type PictureVariant = QuicklookVariant | IndexMapPictureVariant;

/** `<variant>/<encoded id>`: the part both URL forms share. */
export const quicklookPath = (variant: PictureVariant, recordId: string): string =>
  `${variant}/${encodeURIComponent(recordId)}`;

/**
 * The raw request in `<variant>/<encoded id>` (unvalidated: the backend checks it), or null
 * when the path does not have that shape or does not decode.
 */
export function splitQuicklookPath(path: string): { variant: string; recordId: string } | null {
  const m = /^([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return null;
  try {
    return { variant: m[1]!, recordId: decodeURIComponent(m[2]!) };
  } catch {
    return null;
  }
}
