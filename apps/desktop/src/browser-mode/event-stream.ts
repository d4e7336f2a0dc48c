/**
 * `GET /api/events`: the backend's events as Server-Sent Events (`event: <name>` + JSON
 * `data:`), to every open page, with a keep-alive comment so idle proxies and sleeps notice.
 */
import type http from 'node:http';
import type { Backend } from '../backend/backend';

interface EventStreams {
  open(res: http.ServerResponse): void;
  close(): void;
}

export function eventStreams(backend: Promise<Backend>, heartbeatMs: number): EventStreams {
  const streams = new Set<http.ServerResponse>();
  let offEvents = () => {};
  let closed = false;
  void backend.then(
    (b) => {
      if (closed) return;
      offEvents = b.events.onAny((event, payload) => {
        const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
        for (const s of streams) s.write(frame);
      });
    },
    // The launcher reports a backend that failed to start; calls answer with the error.
    () => undefined,
  );
  const heartbeat = setInterval(() => {
    for (const s of streams) s.write(': keep-alive\n\n');
  }, heartbeatMs);
  heartbeat.unref();

  return {
    open(res) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
    },
    close() {
      closed = true;
      clearInterval(heartbeat);
      offEvents();
      for (const s of streams) s.end();
    },
  };
}
