/**
 * The mirror's files over HTTP (`<img>` and the raster worker cannot set headers, so the token
 * is in the query, checked by the server before these run): quicklook PNGs, byte ranges of
 * offline rasters, and raster exports as attachments.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type { Backend } from '../backend/backend';
import { splitQuicklookPath } from '../shared/quicklook-paths';
import { splitRasterPath } from '../shared/raster-paths';
import { send } from './http-answers';

/** `GET /api/quicklooks/<variant>/<record id>`: a mirrored quicklook, 404 when there is none. */
export async function sendQuicklook(
  backend: Promise<Backend>,
  rest: string,
  res: http.ServerResponse,
): Promise<void> {
  const raw = splitQuicklookPath(rest);
  if (!raw) return send(res, 400, { error: 'expected /api/quicklooks/<variant>/<record id>' });
  const answer = (await backend).quicklook(raw);
  if (answer.status === 400) return send(res, 400, { error: answer.message });
  if (answer.status === 404) return send(res, 404, { error: 'no such picture in the mirror' });
  res.writeHead(200, {
    'Content-Type': 'image/png',
    'Content-Length': answer.bytes.length,
    // Private to this page; a later sync may replace a picture, so not kept for long.
    'Cache-Control': 'private, max-age=300',
  });
  res.end(answer.bytes);
}

/** `GET /api/rasters/<raster id>` with `Range`: a byte range of a stored offline raster. */
export async function sendRaster(
  backend: Promise<Backend>,
  rest: string,
  range: string | null,
  res: http.ServerResponse,
): Promise<void> {
  const rasterId = splitRasterPath(rest);
  if (rasterId === null) return send(res, 400, { error: 'expected /api/rasters/<raster id>' });
  const answer = await (await backend).rasterBytes({ rasterId, range });
  switch (answer.status) {
    case 400:
    case 413:
      return send(res, answer.status, { error: answer.message });
    case 404:
      return send(res, 404, { error: 'no such offline raster' });
    case 416:
      res.writeHead(416, {
        'Content-Range': `bytes */${answer.size}`,
        'Cache-Control': 'no-store',
      });
      return void res.end();
  }
  res.writeHead(answer.status, {
    'Content-Type': 'image/tiff',
    'Content-Length': answer.bytes.length,
    'Accept-Ranges': 'bytes',
    ...(answer.status === 206
      ? { 'Content-Range': `bytes ${answer.start}-${answer.end}/${answer.size}` }
      : {}),
    // The worker keeps what it decoded; a raster taken again is new bytes under the same id.
    'Cache-Control': 'no-store',
  });
  res.end(answer.bytes);
}

/** `GET /api/raster-exports/<export id>`: the whole GeoTIFF, streamed as an attachment. */
export async function sendRasterExport(
  backend: Promise<Backend>,
  rest: string,
  res: http.ServerResponse,
): Promise<void> {
  const exportId = splitRasterPath(rest);
  const found = exportId === null ? null : (await backend).rasterExportFile(exportId);
  if (!found) return send(res, 404, { error: 'no such export: export it again' });
  const stream = fs.createReadStream(found.file);
  stream.once('error', () => (res.headersSent ? res.destroy() : send(res, 404, { error: 'gone' })));
  stream.once('open', () => {
    res.writeHead(200, {
      'Content-Type': 'image/tiff',
      'Content-Length': found.bytes,
      // The name is the backend's (letters, digits, dashes, dots): no quoting trouble.
      'Content-Disposition': `attachment; filename="${found.fileName}"`,
      'Cache-Control': 'no-store',
    });
    stream.pipe(res);
  });
}
