/**
 * The built renderer's files (backend/renderer-files.ts), HTML with a strict CSP and never
 * cached, the others revalidated (304 when unchanged); client-side routes fall back to the page.
 * It also tells when the page went out (`onPageServed`): every file its HTML loads before the
 * app starts (entry script, module preloads, stylesheets) was sent, a script among them, and no
 * static file is being sent. The launcher starts the backend then, so its start (which holds
 * the event loop for a while) does not delay the page's own files: a browser asks for six at a
 * time, so "nothing being sent" alone came after the first six. A 304 counts as sent.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { CSP } from '../shared/csp';
import { resolveRendererFile, statOrNull, stillFresh } from '../backend/renderer-files';
import { send } from './http-answers';

type ServeStatic = (
  pathname: string,
  res: http.ServerResponse,
  request: { head: boolean; ifNoneMatch: string | undefined },
) => void;

export function staticFiles(rendererDir: string, onPageServed?: () => void): ServeStatic {
  /** Static files being sent, whether a script went out, and who waits for the page. */
  let sending = 0;
  let scriptServed = false;
  /** The page's own files not sent yet; null until the page went out. */
  let pageFiles: Set<string> | null = null;
  let pageServed = onPageServed;

  /** Counts one file out, and calls `onPageServed` once the page's files all went. */
  function track(file: string, type: string, res: http.ServerResponse): void {
    if (pageFiles === null && type.startsWith('text/html'))
      pageFiles = filesOfPage(file, rendererDir);
    sending++;
    res.once('close', () => {
      sending--;
      pageFiles?.delete(file);
      if (file.endsWith('.js')) scriptServed = true;
      if (scriptServed && sending === 0 && pageFiles?.size === 0 && pageServed) {
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
      // Kept by the browser and asked for again each time: an unchanged file is a 304, and the
      // browser reuses its copy and the code it compiled from it.
      headers['Cache-Control'] = 'no-cache';
      headers['ETag'] = file.etag;
      if (stillFresh(ifNoneMatch, file.etag)) {
        res.writeHead(304, headers);
        if (!head) track(file.path, file.type, res);
        return void res.end();
      }
    }
    headers['Content-Length'] = file.size;
    res.writeHead(200, headers);
    if (head) return void res.end();
    track(file.path, file.type, res);
    fs.createReadStream(file.path).pipe(res);
  };
}

/**
 * The files a page loads before its app starts: what its `<script src>` and `<link href>` tags
 * name (the build's entry, module preloads, stylesheets), those that exist beside it.
 */
function filesOfPage(htmlFile: string, root: string): Set<string> {
  const html = fs.readFileSync(htmlFile, 'utf8');
  const dir = path.dirname(htmlFile);
  const files = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"#?]+)[^"]*"/g)) {
    const ref = m[1]!;
    if (/^[a-z]+:/i.test(ref) || ref.startsWith('//')) continue;
    const file = ref.startsWith('/') ? path.join(root, ref) : path.resolve(dir, ref);
    if (file.startsWith(root + path.sep) && statOrNull(file)?.isFile()) files.add(file);
  }
  return files;
}
