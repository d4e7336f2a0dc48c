/**
 * Entry of the backend's utilityProcess (out/main/backend-process.cjs): a long sync or a big
 * search never blocks main or the window. Under Electron the channel is `process.parentPort`;
 * under plain Node (`child_process.fork`, used to smoke-test the built bundle) it is process IPC,
 * which must be forked with `serialization: 'advanced'`: answers may be bytes
 * (`catalog.footprints`), which Node's default JSON serialization would spell out key by key.
 */
import type { FromBackend, PortLike, ToBackend } from './backend-protocol';
import { serveBackend } from './backend-serve';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  off?(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function parentChannel(): PortLike<ToBackend, FromBackend> {
  const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (parentPort) {
    return {
      postMessage: (m) => parentPort.postMessage(m),
      onMessage: (listener) => {
        const l = (e: { data: unknown }) => listener(e.data as ToBackend);
        parentPort.on('message', l);
        return () => parentPort.off?.('message', l);
      },
    };
  }
  if (process.send) {
    return {
      postMessage: (m) => process.send!(m),
      onMessage: (listener) => {
        const l = (m: unknown) => listener(m as ToBackend);
        process.on('message', l);
        return () => process.off('message', l);
      },
    };
  }
  throw new Error('backend-process must run as an Electron utilityProcess or a forked child');
}

const channel = parentChannel();
serveBackend(channel);
channel.onMessage((m) => {
  // After a clean shutdown nothing is left to do.
  if (m.type === 'shutdown') setTimeout(() => process.exit(0), 5_000).unref();
});
