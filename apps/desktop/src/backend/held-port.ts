/**
 * A port on 127.0.0.1 held from launch for a server that starts later: its URL is known at once
 * (the backend connects to it from the start), and connections made before the server is ready
 * wait, paused, until it takes them. So the embedded service can start after the first screen
 * without the first connectivity check finding nothing there (which would read "offline" until
 * the next check, 30 s later).
 */
import type http from 'node:http';
import net from 'node:net';

export interface HeldPort {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** From now on every connection (those waiting first) goes to `server`. */
  handTo(server: http.Server): void;
  /**
   * Stops listening and closes what is left: connections still waiting (nothing will answer
   * them) and handed-over ones their server did not end (close that server first).
   */
  close(): Promise<void>;
}

export async function holdPort(): Promise<HeldPort> {
  const waiting = new Set<net.Socket>();
  const open = new Set<net.Socket>();
  let target: http.Server | null = null;
  const give = (socket: net.Socket, server: http.Server) => {
    server.emit('connection', socket);
    socket.resume();
  };
  const holder = net.createServer({ pauseOnConnect: true }, (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    if (target) return give(socket, target);
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = holder.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    handTo(server) {
      target = server;
      for (const socket of waiting) give(socket, server);
      waiting.clear();
    },
    close() {
      for (const socket of open) socket.destroy();
      waiting.clear();
      return new Promise((resolve) => holder.close(() => resolve()));
    },
  };
}
