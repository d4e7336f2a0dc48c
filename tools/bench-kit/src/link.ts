/**
 * A simulated network link on 127.0.0.1: a TCP proxy in front of a local service that gives
 * each direction a bandwidth and a one-way latency (half the round trip), and counts the bytes
 * that cross it. Field teams sync over 2 Mbit/s satellite links with 600 ms round trips; on
 * loopback every transfer is free, so without this no benchmark can see what compression or
 * pipelining buys.
 *
 * The model, per direction (full duplex, each direction its own line):
 * - the line carries one chunk at a time at `bitsPerSecond`, shared by every connection through
 *   the link (parallel requests do not get extra bandwidth);
 * - a chunk arrives `rttMs / 2` after its last byte left (propagation);
 * - a new connection pays the TCP handshake: nothing it sends leaves before one round trip has
 *   passed since it connected;
 * - FIN (end of stream) travels like data, after the data before it.
 * Chunks keep their order. Counted bytes are TCP payload (HTTP headers and bodies), not IP or
 * TCP framing, which would add ~3% on a real line. Timers only ever deliver late, never early,
 * so measured times are at least the model's.
 */
import net from 'node:net';

export interface LinkProfile {
  readonly name: string;
  readonly bitsPerSecond: number;
  readonly rttMs: number;
}

/** The two links of issue 13: a satellite terminal and a good cellular connection. */
export const LINKS = {
  satellite: { name: '2 Mbit/s, 600 ms RTT', bitsPerSecond: 2_000_000, rttMs: 600 },
  cellular: { name: '20 Mbit/s, 100 ms RTT', bitsPerSecond: 20_000_000, rttMs: 100 },
} as const satisfies Record<string, LinkProfile>;

/** The least time `bytes` can take one way over `link`: their serialisation plus one round trip. */
export function linkFloorMs(link: LinkProfile, bytes: number): number {
  return (bytes * 8 * 1000) / link.bitsPerSecond + link.rttMs;
}

export interface LinkCounters {
  /** Bytes from clients to the service. */
  readonly up: number;
  /** Bytes from the service to clients. */
  readonly down: number;
  /** TCP connections opened through the link. */
  readonly connections: number;
}

export interface Link {
  /** `http://127.0.0.1:<port>`: point clients here instead of at the service. */
  readonly url: string;
  readonly profile: LinkProfile;
  counters(): LinkCounters;
  /** Zeroes the counters (open connections stay open). */
  resetCounters(): void;
  close(): Promise<void>;
}

/** Largest piece scheduled at once, so the first bytes of a big write arrive early. */
const SLICE = 16 * 1024;

/** One direction's line: when a chunk handed over now arrives at the far end. */
class Line {
  private freeAt = 0;
  bytes = 0;

  constructor(
    private readonly bytesPerMs: number,
    readonly latencyMs: number,
  ) {}

  /** Arrival time of `size` bytes handed over at `now`, not leaving before `notBefore`. */
  schedule(size: number, now: number, notBefore: number): number {
    const start = Math.max(now, notBefore, this.freeAt);
    this.freeAt = start + size / this.bytesPerMs;
    this.bytes += size;
    return this.freeAt + this.latencyMs;
  }
}

/**
 * Carries `source`'s bytes to `sink` over `line`, in order, each at its arrival time; `end`
 * follows the last byte. Reading from `source` pauses while more than `highWater` bytes are on
 * their way (memory stays bounded; it does not change the timing, which is fixed on arrival).
 */
function carry(
  source: net.Socket,
  sink: net.Socket,
  line: Line,
  notBefore: number,
  highWater: number,
): void {
  const queue: Array<{ at: number; chunk: Buffer | null }> = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    if (timer !== undefined || queue.length === 0) return;
    timer = setTimeout(deliver, Math.max(0, Math.ceil(queue[0]!.at - performance.now())));
  };
  const deliver = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.at <= now) {
      const { chunk } = queue.shift()!;
      if (chunk === null) {
        sink.end();
        return;
      }
      inFlight -= chunk.length;
      if (!sink.destroyed) sink.write(chunk);
    }
    if (inFlight < highWater && source.isPaused()) source.resume();
    arm();
  };
  source.on('data', (data: Buffer) => {
    for (let i = 0; i < data.length; i += SLICE) {
      const chunk = data.subarray(i, i + SLICE);
      queue.push({ at: line.schedule(chunk.length, performance.now(), notBefore), chunk });
      inFlight += chunk.length;
    }
    if (inFlight >= highWater) source.pause();
    arm();
  });
  source.on('end', () => {
    const last = queue.at(-1)?.at ?? 0;
    queue.push({ at: Math.max(last, performance.now() + line.latencyMs), chunk: null });
    arm();
  });
  source.on('close', () => {
    // A reset (not a clean end) travels as a reset, at once.
    if (!source.readableEnded) sink.destroy();
  });
}

/** Starts a link to the service at `target` (an `http://127.0.0.1:port` URL). */
export async function startLink(target: string, profile: LinkProfile): Promise<Link> {
  const { hostname, port } = new URL(target);
  const bytesPerMs = profile.bitsPerSecond / 8 / 1000;
  const lines = {
    up: new Line(bytesPerMs, profile.rttMs / 2),
    down: new Line(bytesPerMs, profile.rttMs / 2),
  };
  // Enough in flight to keep the line busy for two round trips (and at least 64 KiB).
  const highWater = Math.max(64 * 1024, Math.ceil(bytesPerMs * profile.rttMs * 2));
  const sockets = new Set<net.Socket>();
  let connections = 0;
  let base = { up: 0, down: 0, connections: 0 };

  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    connections++;
    const upstream = net.connect({
      host: hostname,
      port: Number(port),
      allowHalfOpen: true,
      noDelay: true,
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const handshakeDone = performance.now() + profile.rttMs;
    carry(client, upstream, lines.up, handshakeDone, highWater);
    carry(upstream, client, lines.down, 0, highWater);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    profile,
    counters: () => ({
      up: lines.up.bytes - base.up,
      down: lines.down.bytes - base.down,
      connections: connections - base.connections,
    }),
    resetCounters() {
      base = { up: lines.up.bytes, down: lines.down.bytes, connections };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
