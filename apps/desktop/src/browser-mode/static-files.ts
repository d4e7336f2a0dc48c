/**
 * The built renderer's files, HTML with a strict CSP; client-side routes fall back to the page.
 * It also tells when the page went out (`onPageServed`): every file its HTML loads before the
 * app starts (entry script, module preloads, stylesheets) was sent, a script among them, and no
 * static file is being sent. The launcher starts the backend then, so its start (which holds
 * the event loop for a while) does not delay the page's own files: a browser asks for six at a
 * time, so "nothing being sent" alone came after the first six.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { CSP } from '../shared/csp';
import { send } from './http-answers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

type ServeStatic = (pathname: string, res: http.ServerResponse, head: boolean) => void;

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

  return (pathname, res, head) => {
    const file = resolveFile(rendererDir, pathname);
    if (file === 'bad path') return send(res, 400, { error: 'bad path' });
    if (file === null) return send(res, 404, { error: 'not found' });
    const type = TYPES[path.extname(file.path).toLowerCase()] ?? 'application/octet-stream';
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': type,
      'Content-Length': file.size,
    };
    if (type.startsWith('text/html')) {
      headers['Content-Security-Policy'] = CSP;
      headers['Cache-Control'] = 'no-store';
      headers['X-Frame-Options'] = 'DENY';
    } else {
      headers['Cache-Control'] = 'no-cache';
    }
    res.writeHead(200, headers);
    if (head) return void res.end();
    track(file.path, type, res);
    fs.createReadStream(file.path).pipe(res);
  };
}

/** The file a path names inside the renderer (never outside it), its index page, or the app's page. */
function resolveFile(
  rendererDir: string,
  pathname: string,
): { path: string; size: number } | 'bad path' | null {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return 'bad path';
  }
  let file = path.resolve(rendererDir, '.' + path.posix.normalize('/' + rel));
  if (file !== rendererDir && !file.startsWith(rendererDir + path.sep)) return null;
  let stat = statOrNull(file);
  if (stat?.isDirectory()) {
    file = path.join(file, 'index.html');
    stat = statOrNull(file);
  }
  if (!stat && path.extname(file) === '') {
    // Client-side routes: the app's page.
    file = path.join(rendererDir, 'index.html');
    stat = statOrNull(file);
  }
  return stat?.isFile() ? { path: file, size: stat.size } : null;
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

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}
