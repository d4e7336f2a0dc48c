/**
 * Electron's path for mirrored quicklooks: the `eo-quicklook:` scheme (shared/quicklooks.ts),
 * answered by main from the backend process, so an `<img>` or the map loads a picture without
 * base64 in JSON and without the API key (the bytes come from the mirror, never the service).
 * Main only splits the URL; the backend validates the request. Privileges: a standard, secure
 * scheme (parsed like https, no mixed-content warnings); no fetch, CORS or CSP bypass. The CSP
 * allows it in `img-src` only.
 */
import type { Protocol } from 'electron';
import { QUICKLOOK_SCHEME, splitQuicklookPath } from '../shared/quicklook-paths';
import type { BackendHost } from './backend-host';

export const QUICKLOOK_SCHEME_PRIVILEGES = {
  scheme: QUICKLOOK_SCHEME,
  privileges: { standard: true, secure: true },
} as const;

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/** The answer to one `eo-quicklook://<variant>/<record id>` request. */
export async function quicklookResponse(
  url: string,
  host: Pick<BackendHost, 'quicklook'>,
): Promise<Response> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text(400, 'bad URL');
  }
  const raw =
    parsed.protocol === `${QUICKLOOK_SCHEME}:` && parsed.search === ''
      ? splitQuicklookPath(`${parsed.host}${parsed.pathname}`)
      : null;
  if (!raw) return text(400, `expected ${QUICKLOOK_SCHEME}://<variant>/<record id>`);
  const answer = await host.quicklook(raw);
  if (answer.status === 400) return text(400, answer.message);
  if (answer.status === 404) return text(404, 'no such picture in the mirror');
  return new Response(Buffer.from(answer.bytes), {
    status: 200,
    headers: {
      'Content-Type': 'image/png',
      'Cache-Control': 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** Answers the scheme in a session (after app ready). */
export function serveQuicklooks(
  protocol: Pick<Protocol, 'handle'>,
  host: Pick<BackendHost, 'quicklook'>,
): void {
  protocol.handle(QUICKLOOK_SCHEME, (request) => quicklookResponse(request.url, host));
}
