/**
 * Main's side of the utilityProcess channel: numbered calls and their answers, events to relay,
 * and the key the backend hands back to be stored with safeStorage.
 */
import type { QuicklookAnswer } from '../backend/quicklooks';
import type { RasterBytesAnswer } from '../backend/raster-bytes';
import type { Secrets } from '../backend/secrets';
import type { CallResult, EventName } from '../shared/contract';
import type { FromBackend, PortLike, RasterExportFile, ToBackend } from './backend-protocol';

export interface BackendHost {
  /** Starts the backend with the decrypted key; resolves when it is ready. */
  init(options: {
    dataDir: string;
    version: string;
  }): Promise<{ embeddedServiceUrl: string | null }>;
  /** `input` as the renderer sent it: the backend's dispatch validates it. */
  call(method: string, input: unknown): Promise<CallResult<unknown>>;
  /** A mirrored quicklook (`{ recordId, variant }` as parsed from the URL: the backend validates). */
  quicklook(request: unknown): Promise<QuicklookAnswer>;
  /** A byte range of an offline raster (`{ rasterId, range }` from the URL: the backend validates). */
  rasterBytes(request: unknown): Promise<RasterBytesAnswer>;
  /** The file of a raster export (`rasters.export`'s `exportId`), null when unknown. */
  rasterExportFile(exportId: unknown): Promise<RasterExportFile | null>;
  onEvent(listener: (event: EventName, payload: unknown) => void): () => void;
  shutdown(): Promise<void>;
}

/** The backend did not start: another program holds the data folder (the message names it). */
export class DataFolderInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderInUseError';
  }
}

export function createBackendHost(
  port: PortLike<FromBackend, ToBackend>,
  secrets: Secrets,
  log: (msg: string) => void = console.error,
): BackendHost {
  let nextId = 1;
  const pending = new Map<number, (r: CallResult<unknown>) => void>();
  const pictures = new Map<number, (a: QuicklookAnswer) => void>();
  const ranges = new Map<number, (a: RasterBytesAnswer) => void>();
  const exportFiles = new Map<number, (f: RasterExportFile | null) => void>();
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  let ready: {
    resolve: (v: { embeddedServiceUrl: string | null }) => void;
    reject: (e: Error) => void;
  } | null = null;
  let readyPromise: Promise<{ embeddedServiceUrl: string | null }> | null = null;
  let closed: (() => void) | null = null;
  let failure: string | null = null;

  port.onMessage((msg) => {
    switch (msg.type) {
      case 'ready':
        ready?.resolve({ embeddedServiceUrl: msg.embeddedServiceUrl });
        return;
      case 'result': {
        const resolve = pending.get(msg.id);
        pending.delete(msg.id);
        resolve?.(msg.result);
        return;
      }
      case 'quicklook': {
        const resolve = pictures.get(msg.id);
        pictures.delete(msg.id);
        resolve?.(msg.answer);
        return;
      }
      case 'raster': {
        const resolve = ranges.get(msg.id);
        ranges.delete(msg.id);
        resolve?.(msg.answer);
        return;
      }
      case 'rasterExport': {
        const resolve = exportFiles.get(msg.id);
        exportFiles.delete(msg.id);
        resolve?.(msg.file);
        return;
      }
      case 'event':
        for (const l of [...listeners]) l(msg.event, msg.payload);
        return;
      case 'secret.set':
        try {
          secrets.set(msg.key);
        } catch (e) {
          // The key still works for this session (the backend holds it), it is just not kept.
          log(`could not store the API key: ${e instanceof Error ? e.message : String(e)}`);
        }
        return;
      case 'fatal':
        failure = msg.message;
        log(`backend failed: ${msg.message}`);
        ready?.reject(msg.inUse ? new DataFolderInUseError(msg.message) : new Error(msg.message));
        for (const [id, resolve] of pending) {
          pending.delete(id);
          resolve({
            ok: false,
            error: { code: 'internal', message: `the backend failed: ${msg.message}` },
          });
        }
        for (const [id, resolve] of pictures) {
          pictures.delete(id);
          resolve({ status: 404 });
        }
        for (const [id, resolve] of ranges) {
          ranges.delete(id);
          resolve({ status: 404 });
        }
        for (const [id, resolve] of exportFiles) {
          exportFiles.delete(id);
          resolve(null);
        }
        return;
      case 'closed':
        closed?.();
        return;
    }
  });

  return {
    init(options) {
      readyPromise ??= new Promise((resolve, reject) => {
        ready = { resolve, reject };
        port.postMessage({
          type: 'init',
          ...options,
          apiKey: secrets.get(),
          keyStorage: secrets.storage(),
        });
      });
      return readyPromise;
    },
    async call(method, input) {
      if (failure !== null) {
        return {
          ok: false,
          error: { code: 'internal', message: `the backend failed: ${failure}` },
        };
      }
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        port.postMessage({ type: 'call', id, method, input });
      });
    },
    quicklook(request) {
      if (failure !== null) return Promise.resolve({ status: 404 });
      const id = nextId++;
      return new Promise((resolve) => {
        pictures.set(id, resolve);
        port.postMessage({ type: 'quicklook', id, request });
      });
    },
    rasterBytes(request) {
      if (failure !== null) return Promise.resolve({ status: 404 });
      const id = nextId++;
      return new Promise((resolve) => {
        ranges.set(id, resolve);
        port.postMessage({ type: 'raster', id, request });
      });
    },
    rasterExportFile(exportId) {
      if (failure !== null) return Promise.resolve(null);
      const id = nextId++;
      return new Promise((resolve) => {
        exportFiles.set(id, resolve);
        port.postMessage({ type: 'rasterExport', id, exportId });
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    shutdown() {
      return new Promise((resolve) => {
        closed = resolve;
        port.postMessage({ type: 'shutdown' });
      });
    },
  };
}
