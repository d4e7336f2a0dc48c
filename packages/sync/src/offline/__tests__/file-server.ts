/**
 * A loopback HTTP server holding one file, for the offline tests: byte ranges (one range), a
 * strong ETag and `If-Range`, and faults chosen per request: a body cut off after so many bytes
 * (the socket destroyed: a dropped link), a status, the whole file for a range (a host that
 * ignores Range), or a swapped file (a new ETag). Every request is recorded with its headers.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FileRequest {
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly range: { start: number; end: number } | null;
}

export type FileFault =
  'pass' | { readonly cutAfter: number } | { readonly status: number } | 'ignore-range';

export interface FileServer {
  readonly url: string;
  readonly requests: FileRequest[];
  /** Bytes of bodies sent (the part that left before a cut included). */
  readonly sentBytes: number;
  setFile(bytes: Uint8Array, type?: string): void;
  setFault(choose: (req: FileRequest, n: number) => FileFault): void;
  close(): Promise<void>;
}

export async function startFileServer(
  bytes: Uint8Array,
  type = 'application/octet-stream',
): Promise<FileServer> {
  let file = Buffer.from(bytes);
  let contentType = type;
  let etag = '';
  const setEtag = () =>
    (etag = `"${crypto.createHash('sha256').update(file).digest('hex').slice(0, 16)}"`);
  setEtag();
  let choose: (req: FileRequest, n: number) => FileFault = () => 'pass';
  const requests: FileRequest[] = [];
  let sentBytes = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const range = m
      ? {
          start: Number(m[1]),
          end: m[2] === '' ? file.length - 1 : Math.min(Number(m[2]), file.length - 1),
        }
      : null;
    const recorded: FileRequest = { url: req.url ?? '', headers: req.headers, range };
    requests.push(recorded);
    const fault = choose(recorded, requests.length);
    if (typeof fault === 'object' && 'status' in fault) {
      res.writeHead(fault.status, { 'content-type': 'text/plain' });
      res.end('no');
      return;
    }
    const ifRange = req.headers['if-range'];
    const partial =
      range && fault !== 'ignore-range' && (ifRange === undefined || ifRange === etag);
    if (range && range.start >= file.length) {
      res.writeHead(416, { 'content-range': `bytes */${file.length}` });
      res.end();
      return;
    }
    const body = partial ? file.subarray(range.start, range.end + 1) : file;
    res.writeHead(partial ? 206 : 200, {
      'content-type': contentType,
      'content-length': String(body.length),
      etag,
      'accept-ranges': 'bytes',
      ...(partial ? { 'content-range': `bytes ${range.start}-${range.end}/${file.length}` } : {}),
    });
    if (typeof fault === 'object' && 'cutAfter' in fault) {
      const sent = body.subarray(0, Math.min(fault.cutAfter, body.length));
      sentBytes += sent.length;
      res.write(sent, () => setImmediate(() => req.socket.destroy()));
      return;
    }
    sentBytes += body.length;
    res.end(body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get sentBytes() {
      return sentBytes;
    },
    setFile(b, t) {
      file = Buffer.from(b);
      if (t) contentType = t;
      setEtag();
    },
    setFault(c) {
      choose = c;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
