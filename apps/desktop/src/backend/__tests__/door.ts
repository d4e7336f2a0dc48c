/**
 * A TCP door in front of a service: open, it forwards (and counts the bytes sent towards the
 * service); shut, every connection is cut.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One turn of the event loop: its poll phase reads every socket that has data waiting. */
const readWhatWasWritten = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function startDoor(target: string) {
  const { hostname, port } = new URL(target);
  let open = true;
  let bytes = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(port), hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.on('data', (chunk: Buffer) => (bytes += chunk.length));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(next: boolean) {
      open = next;
      if (!next) for (const s of sockets) s.destroy();
    },
    /**
     * Bytes sent through the door towards the service since the start or the last reset, once
     * the door has read what was written to it so far: a request written on loopback is in the
     * door's socket at once, but the door reads it only at the event loop's next poll, so a
     * count taken in the same turn (all promises, no I/O) would miss it.
     */
    async bytes(): Promise<number> {
      await readWhatWasWritten();
      return bytes;
    },
    /** Starts the count again, after the door has read what was written before (see bytes). */
    async reset(): Promise<void> {
      await readWhatWasWritten();
      bytes = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
