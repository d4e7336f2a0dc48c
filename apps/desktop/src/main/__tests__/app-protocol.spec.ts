/**
 * The app's scheme (`eo-app://app/…`): the built renderer's files and nothing else, the page
 * with its CSP; hostile URLs (other hosts, escapes, bad encodings, other methods) refused.
 * Real files in a temp folder; Electron's `protocol` is only a function taking the handler.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPING_PATHS } from '../../backend/__tests__/renderer-escapes';
import { CSP } from '../../shared/csp';
import { APP_PAGE_URL, APP_SCHEME, appFileResponse, serveAppFiles } from '../app-protocol';

let root: string;
let rendererDir: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-app-scheme-'));
  rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><p>app</p>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'outside');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => appFileResponse({ url, method }, rendererDir);

describe("the app's scheme", () => {
  it('serves the page with its CSP, never cached, and the scripts with their type', async () => {
    const page = await get(APP_PAGE_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toBe('<!doctype html><p>app</p>');
    const script = await get('eo-app://app/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.headers.get('content-length')).toBe('14');
    expect(await script.text()).toBe('console.log(1)');
    // A client-side route is the page; HEAD has no body.
    expect(await (await get('eo-app://app/catalog')).text()).toContain('app');
    const head = await get(APP_PAGE_URL, 'HEAD');
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('serves nothing outside the renderer, nor for another host, method or scheme', async () => {
    for (const url of [...ESCAPING_PATHS, '/assets/%00.js'].map((p) => `eo-app://app${p}`)) {
      const r = await get(url);
      expect(await r.text(), url).not.toContain('outside');
    }
    expect((await get('eo-app://app/assets/missing.js')).status).toBe(404);
    expect((await get('eo-app://app/%E0%A4%A')).status).toBe(400);
    expect((await get('eo-app://other/index.html')).status).toBe(400);
    expect((await get('eo-quicklook://app/index.html')).status).toBe(400);
    expect((await get('not a url')).status).toBe(400);
    expect((await get(APP_PAGE_URL, 'POST')).status).toBe(405);
  });

  it('is answered for its scheme once the session is ready', async () => {
    const handlers = new Map<string, (r: { url: string; method: string }) => Promise<Response>>();
    serveAppFiles({ handle: (scheme, fn) => void handlers.set(scheme, fn as never) }, rendererDir);
    const page = await handlers.get(APP_SCHEME)!({ url: APP_PAGE_URL, method: 'GET' });
    expect(page.status).toBe(200);
  });
});
