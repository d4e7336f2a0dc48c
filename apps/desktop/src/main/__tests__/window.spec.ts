import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

const created: Array<{ options: Record<string, unknown>; win: FakeWindow }> = [];
const openExternal = vi.fn(async (_url: string) => undefined);

class FakeWindow extends EventEmitter {
  loadURL = vi.fn(async () => undefined);
  show = vi.fn();
  constructor(options: Record<string, unknown>) {
    super();
    created.push({ options, win: this });
  }
}

vi.mock('electron', () => ({ BrowserWindow: FakeWindow, shell: { openExternal } }));

const { CSP } = await import('../../shared/csp');
const { contract, events } = await import('../../shared/contract');
const { contractNamesFromArgv } = await import('../../shared/names');
const { WEB_PREFERENCES, applySessionSecurity, createMainWindow, hardenContents, isTrustedSender } =
  await import('../window');

/** A WebContents stand-in recording handlers. */
function fakeContents() {
  const handlers = new Map<string, (...a: unknown[]) => void>();
  let openHandler: ((d: { url: string }) => { action: string }) | undefined;
  return {
    on: vi.fn((name: string, fn: (...a: unknown[]) => void) => {
      handlers.set(name, fn);
    }),
    setWindowOpenHandler: vi.fn((fn: (d: { url: string }) => { action: string }) => {
      openHandler = fn;
    }),
    fire(name: string, url?: string) {
      const event = { preventDefault: vi.fn() };
      handlers.get(name)!(event, url);
      return event;
    },
    open: (url: string) => openHandler!({ url }),
  };
}

describe('main window', () => {
  it('is sandboxed and context-isolated, without Node, webviews or insecure content', () => {
    createMainWindow({
      preload: '/app/out/preload/index.cjs',
      url: 'eo-app://app/index.html',
    });
    const { options, win } = created.at(-1)!;
    const prefs = options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      preload: '/app/out/preload/index.cjs',
    });
    expect(prefs).toEqual({
      ...WEB_PREFERENCES,
      preload: '/app/out/preload/index.cjs',
      v8CacheOptions: 'bypassHeatCheck',
      additionalArguments: expect.any(Array),
    });
    // The preload reads back exactly the contract's names from its command line.
    const names = contractNamesFromArgv(prefs.additionalArguments as string[]);
    expect([...names.methods]).toEqual(Object.keys(contract));
    expect([...names.events]).toEqual(Object.keys(events));
    expect(options).toMatchObject({ width: 1280, height: 800, show: false });
    expect(win.loadURL).toHaveBeenCalledWith('eo-app://app/index.html');
    win.emit('ready-to-show');
    expect(win.show).toHaveBeenCalled();
  });

  it('refuses every navigation and new window; allowlisted links open in the browser', () => {
    const c = fakeContents();
    hardenContents(c as never, { isAllowed: (u) => u === 'https://stacspec.org/' });
    expect(c.fire('will-navigate', 'https://evil.example/').preventDefault).toHaveBeenCalled();
    expect(c.fire('will-navigate', 'https://stacspec.org/').preventDefault).toHaveBeenCalled();
    expect(c.fire('will-redirect', 'https://evil.example/').preventDefault).toHaveBeenCalled();
    expect(c.fire('will-attach-webview').preventDefault).toHaveBeenCalled();
    expect(c.open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(c.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(c.open('https://stacspec.org/')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls.map((a) => a[0])).toEqual([
      'https://stacspec.org/',
      'https://stacspec.org/',
    ]);
  });

  it('refuses every permission and sets the CSP on every response', () => {
    let request: ((wc: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    let headers: ((d: unknown, cb: (r: unknown) => void) => void) | undefined;
    const session = {
      setPermissionRequestHandler: (fn: typeof request) => (request = fn),
      setPermissionCheckHandler: (fn: typeof check) => (check = fn),
      setDevicePermissionHandler: vi.fn(),
      webRequest: { onHeadersReceived: (fn: typeof headers) => (headers = fn) },
    };
    applySessionSecurity(session as never);
    for (const p of ['geolocation', 'media', 'notifications', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      request!({}, p, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect((check as unknown as (...a: unknown[]) => boolean)({}, 'geolocation', 'file://')).toBe(
      false,
    );
    let out: { responseHeaders: Record<string, string[]> } | undefined;
    headers!({ responseHeaders: { 'X-A': ['1'] } }, (r) => (out = r as typeof out));
    expect(out!.responseHeaders['Content-Security-Policy']).toEqual([CSP]);
    expect(out!.responseHeaders['X-A']).toEqual(['1']);
  });

  it('grants geolocation and clipboard writes, and only them, to the app page alone', () => {
    type Request = (wc: unknown, p: string, cb: (ok: boolean) => void, d?: object) => void;
    type Check = (wc: unknown, p: string, origin: string) => boolean;
    let request: Request | undefined;
    let check: Check | undefined;
    const session = {
      setPermissionRequestHandler: (fn: Request) => (request = fn),
      setPermissionCheckHandler: (fn: Check) => (check = fn),
      setDevicePermissionHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    };
    const page = 'eo-app://app/index.html';
    applySessionSecurity(session as never, page);
    const asked = (p: string, url: string) => {
      const cb = vi.fn();
      request!({}, p, cb, { requestingUrl: url });
      return cb.mock.calls[0]?.[0] as boolean;
    };
    expect(asked('geolocation', `${page}#/catalog`)).toBe(true);
    expect(asked('geolocation', 'file:///app/out/renderer/index.html')).toBe(false);
    // Another page of a scheme Node's URL does not know (its origin is "null", like ours).
    expect(asked('geolocation', 'eo-quicklook://app/index.html')).toBe(false);
    expect(asked('geolocation', 'eo-app://other/index.html')).toBe(false);
    expect(asked('geolocation', 'https://evil.example/')).toBe(false);
    expect(asked('clipboard-sanitized-write', page)).toBe(true);
    expect(asked('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    for (const p of ['media', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(asked(p, page)).toBe(false);
    }
    expect(check!({}, 'geolocation', 'eo-app://app')).toBe(true);
    expect(check!({}, 'geolocation', 'file://')).toBe(false);
    expect(check!({}, 'geolocation', 'null')).toBe(false);
    expect(check!({}, 'geolocation', 'https://evil.example')).toBe(false);
    expect(check!({}, 'media', 'eo-app://app')).toBe(false);

    // The dev server's page: its origin.
    applySessionSecurity(session as never, 'http://localhost:5173/');
    expect(asked('geolocation', 'http://localhost:5173/#/catalog')).toBe(true);
    expect(asked('geolocation', 'http://localhost:5174/')).toBe(false);
  });

  it('answers IPC only from the app page in the app window', () => {
    const expected = { webContentsId: 7, pageUrl: 'eo-app://app/index.html' };
    const ev = (id: number, url: string | null) => ({
      sender: { id },
      senderFrame: url === null ? null : { url },
    });
    expect(isTrustedSender(ev(7, 'eo-app://app/index.html#/catalog'), expected)).toBe(true);
    expect(isTrustedSender(ev(8, 'eo-app://app/index.html'), expected)).toBe(false);
    expect(isTrustedSender(ev(7, 'file:///app/out/renderer/index.html'), expected)).toBe(false);
    expect(isTrustedSender(ev(7, 'eo-raster://app/index.html'), expected)).toBe(false);
    expect(isTrustedSender(ev(7, 'https://evil.example/'), expected)).toBe(false);
    expect(isTrustedSender(ev(7, null), expected)).toBe(false);
    expect(
      isTrustedSender(ev(7, 'eo-app://app/index.html'), {
        ...expected,
        webContentsId: null,
      }),
    ).toBe(false);
    const dev = { webContentsId: 7, pageUrl: 'http://localhost:5173/' };
    expect(isTrustedSender(ev(7, 'http://localhost:5173/#x'), dev)).toBe(true);
    expect(isTrustedSender(ev(7, 'http://localhost:5174/'), dev)).toBe(false);
  });
});
