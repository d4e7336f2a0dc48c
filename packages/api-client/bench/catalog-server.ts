/**
 * Child process of bench/paging.ts: serves pre-generated catalog search pages
 * (`{ catalogs, pagination: { limit, offset, total } }`) from memory on 127.0.0.1, so the
 * benchmark measures the client, not a database. Reports its port over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogRecord } from '../test/records';

const total = Number(process.argv[2]);
const pageSize = Number(process.argv[3]);

// Serialised once: both contenders read identical bytes and the server does no work per request.
const pages = new Map<number, Buffer>();
for (let offset = 0; offset < total || offset === 0; offset += pageSize) {
  const n = Math.min(pageSize, total - offset);
  const catalogs = Array.from({ length: n }, (_, i) => catalogRecord(offset + i));
  pages.set(
    offset,
    Buffer.from(JSON.stringify({ catalogs, pagination: { limit: pageSize, offset, total } })),
  );
}
const empty = Buffer.from(
  JSON.stringify({ catalogs: [], pagination: { limit: pageSize, offset: total, total } }),
);
const bytes = [...pages.values()].reduce((s, b) => s + b.length, 0);

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { offset = 0, limit = pageSize } = JSON.parse(
      Buffer.concat(chunks).toString() || '{}',
    ) as {
      offset?: number;
      limit?: number;
    };
    if (limit !== pageSize) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: 'validation_failed', message: `limit must be ${pageSize}` },
        }),
      );
      return;
    }
    const body = pages.get(offset) ?? empty;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ port, bytes });
});
