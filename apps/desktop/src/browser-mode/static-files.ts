/**
 * The built renderer's files (backend/renderer-files.ts), HTML with a strict CSP and never
 * cached; the build's content-named files (`assets/`, a hash in each name) kept by the browser
 * without asking again, the others revalidated (304 when unchanged); client-side routes fall
 * back to the page.
 *
 * It also tells when the page went out (`onPageServed`): its HTML was sent and no static file is
 * being sent. The launcher starts the backend then, and the backend's start holds the event loop
 * for a while (~0.1 to 0.2 s). A browser that kept the page's scripts and styles (every launch
 * but the first of a build) asks for none of them, so nothing waits behind that start and the
 * backend is up before the page's first calls; on the first launch of a build the files the
 * HTML names wait for it once.
 */
import fs from 'node:fs';
import type http from 'node:http';
import { CSP } from '../shared/csp';
import { resolveRendererFile, stillFresh } from '../backend/renderer-files';
import { send } from './http-answers';

type ServeStatic = (
  pathname: string,
  res: http.ServerResponse,
  request: { head: boolean; ifNoneMatch: string | undefined },
) => void;

export function staticFiles(rendererDir: string, onPageServed?: () => void): ServeStatic {
  /** Static files being sent, whether the page went, and who waits for it. */
  let sending = 0;
  let htmlServed = false;
  let pageServed = onPageServed;

  /** Counts one file out, and calls `onPageServed` once the page went and nothing is sent. */
  function track(type: string, res: http.ServerResponse): void {
    sending++;
    res.once('close', () => {
      sending--;
      if (type.startsWith('text/html')) htmlServed = true;
      if (htmlServed && sending === 0 && pageServed) {
        const call = pageServed;
        pageServed = undefined;
        call();
      }
    });
  }

  return (pathname, res, { head, ifNoneMatch }) => {
    const file = resolveRendererFile(rendererDir, pathname);
    if (file === 'bad path') return send(res, 400, { error: 'bad path' });
    if (file === null) return send(res, 404, { error: 'not found' });
    const headers: http.OutgoingHttpHeaders = { 'Content-Type': file.type };
    if (file.type.startsWith('text/html')) {
      headers['Content-Security-Policy'] = CSP;
      headers['Cache-Control'] = 'no-store';
      headers['X-Frame-Options'] = 'DENY';
    } else {
      // A content-named file is kept for good (its name changes with its content); the others
      // are asked for again each time: an unchanged file is a 304. Either way the browser
      // reuses its copy and the code it compiled from it.
      headers['Cache-Control'] = file.immutable
        ? 'public, max-age=31536000, immutable'
        : 'no-cache';
      headers['ETag'] = file.etag;
      if (stillFresh(ifNoneMatch, file.etag)) {
        res.writeHead(304, headers);
        if (!head) track(file.type, res);
        return void res.end();
      }
    }
    headers['Content-Length'] = file.size;
    res.writeHead(200, headers);
    if (head) return void res.end();
    track(file.type, res);
    fs.createReadStream(file.path).pipe(res);
  };
}
