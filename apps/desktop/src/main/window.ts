/**
 * The window and everything that keeps web content in its box: sandboxed, context-isolated
 * renderer without Node; CSP on every response; no navigation away from the app, no new
 * windows, no webviews, no permissions but the device position for our page; external links only through the allowlist.
 */
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { EVENT_NAMES, METHODS } from '../shared/contract';
import { CSP } from '../shared/csp';
import { contractNameArguments } from '../shared/names';

export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  safeDialogs: true,
} as const;

export function createMainWindow(options: {
  preload: string;
  /** The app's page: over the app's scheme (app-protocol.ts), or the dev server's. */
  url: string;
}): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    title: 'EO Field Desk',
    backgroundColor: '#ffffff',
    webPreferences: {
      ...WEB_PREFERENCES,
      preload: options.preload,
      // The page's scripts' compiled code kept from its first load (app-protocol.ts), not only
      // from a second one (Chromium's default waits to see a script twice before keeping it).
      v8CacheOptions: 'bypassHeatCheck',
      // The preload allows exactly these names (it loads no contract of its own).
      additionalArguments: contractNameArguments(METHODS, EVENT_NAMES),
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(options.url);
  return win;
}

/**
 * Applied to every WebContents the app creates (app 'web-contents-created'): navigation is
 * refused (an allowlisted link opens in the browser instead), window.open is refused likewise,
 * webviews never attach.
 */
export function hardenContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  links: { isAllowed(url: string): boolean; open?: (url: string) => void },
): void {
  const open = links.open ?? ((url: string) => void shell.openExternal(url));
  const external = (url: string) => {
    if (links.isAllowed(url)) open(url);
  };
  contents.on('will-navigate', (event: { preventDefault(): void }, url: string) => {
    event.preventDefault();
    external(url);
  });
  contents.on('will-redirect', (event: { preventDefault(): void }) => event.preventDefault());
  contents.on('will-attach-webview', (event: { preventDefault(): void }) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }: { url: string }) => {
    external(url);
    return { action: 'deny' };
  });
}

/**
 * The permissions the app's own page gets: the device position ("Near me" on the maps) and
 * writing to the clipboard ("Copy link"; reading it stays refused). Any other permission, and
 * these for any other page or frame, is refused.
 */
export const GRANTED_PERMISSIONS: readonly string[] = ['geolocation', 'clipboard-sanitized-write'];

/** Session-wide: every permission but geolocation for our page refused, CSP on every response. */
export function applySessionSecurity(session: Session, pageUrl?: string): void {
  const granted = (permission: string, url: string | undefined) =>
    pageUrl !== undefined &&
    GRANTED_PERMISSIONS.includes(permission) &&
    url !== undefined &&
    isAppPage(url, pageUrl);
  session.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(granted(permission, details?.requestingUrl)),
  );
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin) =>
    granted(permission, requestingOrigin),
  );
  session.setDevicePermissionHandler?.(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] },
    });
  });
}

/** IPC is answered only for the app's own page in the app's window. */
export function isTrustedSender(
  event: { sender: { id: number }; senderFrame?: { url: string } | null },
  expected: { webContentsId: number | null; pageUrl: string },
): boolean {
  if (expected.webContentsId === null || event.sender.id !== expected.webContentsId) return false;
  const frameUrl = event.senderFrame?.url;
  if (!frameUrl) return false;
  return isAppPage(frameUrl, expected.pageUrl);
}

/**
 * A URL (or an origin) is the app's page: the same scheme and host (and port) as the app's
 * page, `eo-app://app` or the dev server's. Compared part by part, not by `origin`: for a scheme
 * Node's URL does not know (ours) `origin` is "null", the same for every such URL.
 */
export function isAppPage(url: string, pageUrl: string): boolean {
  try {
    const want = new URL(pageUrl);
    const got = new URL(url);
    return got.protocol === want.protocol && got.host === want.host && want.host !== '';
  } catch {
    return false;
  }
}
