/**
 * How the renderer reaches the backend: the one typed contract, over either
 * - `window.eo`, exposed by the Electron preload (IPC to main), or
 * - HTTP in browser mode: `POST /api/call/<method>` with the per-launch token as a Bearer token,
 *   and Server-Sent Events from `/api/events?token=` for events.
 * The token arrives in the URL fragment (`#token=...`), which browsers never send to a server
 * or put in a Referer; we move it to sessionStorage and strip it from the address bar, so it
 * survives a reload but is not left in history or a screenshot.
 */
import type { Bridge, CallResult, EventName, EventPayload, Method } from '../shared/contract';
// The contract's own files, not its index: that brings every method's schemas (initial JS).
import { ContractError, toContractError, withContractErrors } from '../shared/contract/errors';
import {
  browserQuicklookUrl,
  electronQuicklookUrl,
  type QuicklookUrl,
} from './ui/quicklook-source';
import {
  browserRasterExportUrl,
  browserRasterUrl,
  electronRasterUrl,
  type RasterUrl,
} from './capabilities/rasters/raster-url';

export const TOKEN_STORAGE_KEY = 'eo.browserModeToken';

/** Where readToken looks; the real `location`, `history` and `sessionStorage` in the app. */
export interface TokenSources {
  readonly location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  readonly history?: Pick<History, 'replaceState'>;
  readonly storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

/** The browser-mode token: from `#token=` (then stored and removed from the URL), or storage. */
export function readToken(src: TokenSources): string | null {
  const params = new URLSearchParams(src.location.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (fromHash) {
    src.storage?.setItem(TOKEN_STORAGE_KEY, fromHash);
    params.delete('token');
    const rest = params.toString();
    src.history?.replaceState(
      null,
      '',
      `${src.location.pathname}${src.location.search}${rest ? `#${rest}` : ''}`,
    );
    return fromHash;
  }
  return src.storage?.getItem(TOKEN_STORAGE_KEY) || null;
}

/**
 * The browser-mode server refused the page's token: the app was restarted (new token) or the
 * page was opened without the printed address. Nothing works until the page is reopened.
 */
export class AccessDeniedError extends ContractError {
  constructor() {
    super(
      'unauthorized',
      'This page is no longer connected to the app: open the address the app printed when it started (it changes at every start).',
    );
    this.name = 'AccessDeniedError';
  }
}

/** Window event fired once when the token is refused, so the app can say so over everything. */
export const ACCESS_DENIED_EVENT = 'eo:access-denied';

export interface HttpBridgeOptions {
  /** Origin of the browser-mode server ('' = same origin). */
  readonly baseUrl: string;
  readonly token: string;
  /** Called when the server refuses the token. */
  readonly onAccessDenied?: () => void;
  readonly fetch?: typeof fetch;
  readonly EventSource?: typeof EventSource;
}

/**
 * The browser-mode server answers every call with a CallResult (`{ ok, value }` or
 * `{ ok: false, error }`), the same shape the preload gets over IPC; anything else is a broken
 * or foreign server.
 */
function unwrap(method: string, status: number, body: unknown): unknown {
  const result = body as CallResult<unknown> | null;
  if (result && typeof result === 'object' && 'ok' in result) {
    if (result.ok) return result.value;
    throw toContractError(result.error);
  }
  if (status === 401) throw new AccessDeniedError();
  throw new ContractError(
    'internal',
    `${method}: unexpected answer from the app's backend (HTTP ${status})`,
  );
}

export function createHttpBridge(opts: HttpBridgeOptions): Bridge {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const ES = opts.EventSource ?? globalThis.EventSource;
  let source: EventSource | null = null;
  let listeners = 0;

  async function call(method: Method, input?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(`${opts.baseUrl}/api/call/${encodeURIComponent(method)}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${opts.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(input ?? {}),
      });
    } catch (err) {
      throw new ContractError(
        'internal',
        `The app's backend is not reachable (${err instanceof Error ? err.message : String(err)}). Is the app still running?`,
      );
    }
    // A successful call answering bytes (`catalog.footprints`) comes as the bytes themselves.
    if (res.status === 200 && res.headers.get('content-type') === 'application/octet-stream') {
      return new Uint8Array(await res.arrayBuffer());
    }
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    try {
      return unwrap(method, res.status, body);
    } catch (err) {
      if (err instanceof AccessDeniedError) opts.onAccessDenied?.();
      throw err;
    }
  }

  function on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void {
    if (!source) {
      source = new ES(`${opts.baseUrl}/api/events?token=${encodeURIComponent(opts.token)}`);
    }
    const es = source;
    listeners++;
    const handler = (e: Event) => {
      try {
        fn(JSON.parse((e as MessageEvent<string>).data) as EventPayload<E>);
      } catch (err) {
        console.error(`event ${event}: unreadable payload`, err);
      }
    };
    es.addEventListener(event, handler);
    return () => {
      es.removeEventListener(event, handler);
      listeners--;
      if (listeners === 0 && source === es) {
        es.close();
        source = null;
      }
    };
  }

  return { call: call as Bridge['call'], on };
}

export type BridgeChoice =
  | {
      readonly ok: true;
      readonly bridge: Bridge;
      readonly mode: 'electron' | 'browser';
      /** Where pictures of the mirror load from (ui/quicklook-source.ts). */
      readonly quicklookUrl: QuicklookUrl;
      /** Where offline rasters' bytes are read by range (capabilities/rasters/raster-url.ts). */
      readonly rasterUrl: RasterUrl;
      /** Browser mode's download of a raster export; null in Electron (main saves it). */
      readonly rasterExportUrl: RasterUrl | null;
    }
  | { readonly ok: false; readonly reason: string };

/** Electron's preload bridge when present, else browser mode with the URL's token. */
export function selectBridge(win: Window & { eo?: Bridge } = window): BridgeChoice {
  // The preload rejects with plain { code, message } data: make those ContractErrors again.
  if (win.eo) {
    const bridge = withContractErrors(win.eo);
    return {
      ok: true,
      bridge,
      mode: 'electron',
      quicklookUrl: electronQuicklookUrl,
      rasterUrl: electronRasterUrl,
      rasterExportUrl: null,
    };
  }
  const token = readToken({
    location: win.location,
    history: win.history,
    storage: win.sessionStorage,
  });
  if (!token) {
    return {
      ok: false,
      reason:
        'This page needs the access token of the running app. Open the full address printed by the app when it started (it ends with #token=...).',
    };
  }
  let told = false;
  const bridge = createHttpBridge({
    baseUrl: '',
    token,
    onAccessDenied: () => {
      if (told) return;
      told = true;
      win.dispatchEvent(new Event(ACCESS_DENIED_EVENT));
    },
  });
  return {
    ok: true,
    bridge,
    mode: 'browser',
    quicklookUrl: browserQuicklookUrl(token),
    rasterUrl: browserRasterUrl(token, win.location.origin),
    rasterExportUrl: browserRasterExportUrl(token, win.location.origin),
  };
}
