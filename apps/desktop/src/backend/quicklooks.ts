/**
 * The mirrored quicklooks and index maps of visualizations, as bytes for the renderer's `<img>` and map (through Electron's
 * `eo-quicklook:` scheme or browser mode's GET route, shared/quicklooks.ts): from the mirror
 * only, so they show offline and nothing here ever asks the service. The request is validated
 * here, the boundary both paths cross; a shown picture counts as viewed for the byte budget's
 * eviction (least recently viewed first).
 */
import type { QuicklookVariant } from '@eo/domain';
import type { Mirror } from '@eo/sync';
import { QuicklookRequest } from '../shared/quicklooks';

export type QuicklookAnswer =
  | { readonly status: 200; readonly bytes: Uint8Array }
  | { readonly status: 400; readonly message: string }
  | { readonly status: 404 };

export function makeQuicklooks(mirror: Pick<Mirror, 'imagery'>) {
  return function quicklook(raw: unknown): QuicklookAnswer {
    const parsed = QuicklookRequest.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { status: 400, message: `${issue.path.join('.') || 'request'}: ${issue.message}` };
    }
    const { recordId, variant } = parsed.data;
    // The mirror keys an index map `index:<date>` (shared/quicklooks.ts says why the URL differs).
    const stored = variant.startsWith('index-')
      ? (`index:${variant.slice('index-'.length)}` as const)
      : (variant as QuicklookVariant);
    const bytes = mirror.imagery.get(recordId, stored);
    if (!bytes) return { status: 404 };
    mirror.imagery.touch(recordId);
    return { status: 200, bytes };
  };
}
