/**
 * How a mirrored quicklook reaches the renderer: as a URL an `<img>` (or the map's canvas) loads,
 * never as base64 in a contract answer, and never from the service (the pictures come from the
 * mirror only, so they show offline and the API key stays in the backend).
 *
 * - Electron: `eo-quicklook://<variant>/<record id, URI-encoded>`, a privileged scheme main
 *   answers from the backend (src/main/quicklook-protocol.ts).
 * - Browser mode: `GET /api/quicklooks/<variant>/<record id, URI-encoded>?token=<token>` on the
 *   browser-mode server (`<img>` cannot send a header; the event stream uses the same query).
 *
 * Both ends parse the same request shape here; the backend validates it before reading.
 */
import { QuicklookVariant } from '@eo/domain';
import { z } from 'zod';
import type {
  IndexMapPictureVariant as IndexMapVariantName,
  PictureVariant,
} from './quicklook-paths';

export { QUICKLOOK_HTTP_PREFIX, QUICKLOOK_SCHEME, quicklookPath } from './quicklook-paths';

/** A catalog record id as the mirror keys it: no whitespace or control characters, ≤ 200. */
export const QuicklookRecordId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s\p{Cc}]+$/u, 'a record id has no spaces or control characters');

/**
 * A mirrored index map of a visualization for one date goes the same way: `index-<YYYY-MM-DD>`
 * as the variant, the visualization id as the record (no colon: the variant is the URL's host
 * in Electron's scheme).
 */
export const IndexMapPictureVariant = z
  .string()
  .regex(/^index-\d{4}-\d{2}-\d{2}$/, 'an index map is index-YYYY-MM-DD') as z.ZodType<
  IndexMapVariantName,
  string
>;
export type IndexMapPictureVariant = IndexMapVariantName;
export type { PictureVariant };
export const indexMapPictureVariant = (date: string): IndexMapPictureVariant => `index-${date}`;

export const QuicklookRequest = z.strictObject({
  recordId: QuicklookRecordId,
  variant: z.union([QuicklookVariant, IndexMapPictureVariant]),
});
export type QuicklookRequest = z.infer<typeof QuicklookRequest>;
