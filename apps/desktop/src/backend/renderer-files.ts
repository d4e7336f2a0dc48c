/**
 * The built renderer's files, for the two that serve them: browser mode over HTTP
 * (`browser-mode/static-files.ts`) and Electron's app scheme (`main/app-protocol.ts`), here on
 * the Node side both of them import. One answer to "which file does this path name" (never
 * one outside the renderer's folder; client-side routes are the app's page), its content type,
 * and its validator: a browser that kept a file revalidates it, and a file that did not change
 * keeps the browser's cached copy and the V8 code compiled from it (docs/cold-start.md).
 */
import fs from 'node:fs';
import path from 'node:path';

const RENDERER_FILE_TYPES: Readonly<Record<string, string>> = {
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

interface RendererFile {
  readonly path: string;
  readonly size: number;
  readonly type: string;
  /** A strong validator: the file's size and modification time (a rebuild changes either). */
  readonly etag: string;
  /**
   * Named by its content: the build writes its scripts, styles and data to `assets/` with a
   * hash of the content in the name (`index-C8Y6KEef.js`), so that name never holds anything
   * else, and a browser may keep the file without asking again. The page names this build's.
   */
  readonly immutable: boolean;
}

/** A build's content-named file: `assets/<name>-<8-character hash>.<ext>` (Vite's naming). */
const CONTENT_NAMED = /^assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/** The file a path names inside the renderer (never outside it), its index page, or the app's page. */
export function resolveRendererFile(
  rendererFolder: string,
  pathname: string,
): RendererFile | 'bad path' | null {
  const rendererDir = path.resolve(rendererFolder);
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
  if (!stat?.isFile()) return null;
  return {
    path: file,
    size: stat.size,
    type: RENDERER_FILE_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    etag: `"${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}"`,
    immutable: CONTENT_NAMED.test(path.relative(rendererDir, file).split(path.sep).join('/')),
  };
}

/** Longest If-None-Match read: a browser sends one tag; anything longer is not ours. */
const MAX_IF_NONE_MATCH = 1024;

/**
 * The request's If-None-Match names this validator (RFC 9110 13.1.2: a list of tags, weak
 * comparison, or `*`): the browser's copy is current and the answer is 304, without a body.
 */
export function stillFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch || ifNoneMatch.length > MAX_IF_NONE_MATCH) return false;
  const value = ifNoneMatch.trim();
  if (value === '*') return true;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}
