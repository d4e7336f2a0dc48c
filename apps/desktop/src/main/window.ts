/**
 * The window and everything that keeps web content in its box: sandboxed, context-isolated
 * renderer without Node; CSP on every response; no navigation away from the app, no new
 * windows, no webviews, no permissions; external links only through the allowlist.
 */
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { CSP } from '../shared/csp';

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
  /** `{ file }` in production (out/renderer/index.html), `{ url }` with the dev server. */
  load: { file: string } | { url: string };
}): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    title: 'EO Field Desk',
    backgroundColor: '#ffffff',
    webPreferences: { ...WEB_PREFERENCES, preload: options.preload },
  });
  win.once('ready-to-show', () => win.show());
  if ('file' in options.load) void win.loadFile(options.load.file);
  else void win.loadURL(options.load.url);
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

/** Session-wide: every permission refused, CSP header on every response. */
export function applySessionSecurity(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
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
  try {
    const got = new URL(frameUrl);
    const want = new URL(expected.pageUrl);
    if (want.protocol === 'file:')
      return got.protocol === 'file:' && got.pathname === want.pathname;
    return got.origin === want.origin;
  } catch {
    return false;
  }
}
