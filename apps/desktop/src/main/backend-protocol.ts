/**
 * Messages between main and the backend's utilityProcess. The API key crosses this channel
 * (main holds safeStorage, the backend makes the requests); it never goes to the renderer.
 */
import type { QuicklookAnswer } from '../backend/quicklooks';
import type { RasterBytesAnswer } from '../backend/raster-bytes';

/** A raster export's file in the backend's temporary folder (or the stored file itself). */
export interface RasterExportFile {
  readonly file: string;
  readonly fileName: string;
  readonly bytes: number;
}
import type { CallResult, EventName, KeyStorage } from '../shared/contract';

export type ToBackend =
  | {
      type: 'init';
      dataDir: string;
      apiKey: string | null;
      /** How main keeps the key (safeStorage), for Settings to say. */
      keyStorage: KeyStorage;
      version: string;
    }
  | { type: 'call'; id: number; method: string; input: unknown }
  /** A mirrored quicklook for the `eo-quicklook:` scheme; `request` unvalidated (the backend checks). */
  | { type: 'quicklook'; id: number; request: unknown }
  /** A byte range of an offline raster for the `eo-raster:` scheme; `request` unvalidated. */
  | { type: 'raster'; id: number; request: unknown }
  /** Where a raster export's file is (`rasters.export`'s `exportId`), for main to save it. */
  | { type: 'rasterExport'; id: number; exportId: unknown }
  | { type: 'shutdown' };

export type FromBackend =
  | { type: 'ready'; embeddedServiceUrl: string | null }
  | { type: 'result'; id: number; result: CallResult<unknown> }
  /** The picture's bytes travel as a Uint8Array (structured clone), not base64. */
  | { type: 'quicklook'; id: number; answer: QuicklookAnswer }
  | { type: 'raster'; id: number; answer: RasterBytesAnswer }
  | { type: 'rasterExport'; id: number; file: RasterExportFile | null }
  | { type: 'event'; event: EventName; payload: unknown }
  /** The backend changed the key (Settings, or a fresh demo key): main stores it encrypted. */
  | { type: 'secret.set'; key: string | null }
  /** `inUse`: another program holds the data folder (backend/data-lock.ts); `message` names it. */
  | { type: 'fatal'; message: string; inUse?: boolean }
  | { type: 'closed' };

/** The common part of Electron's MessagePortMain / parentPort / UtilityProcess and a test pair. */
export interface PortLike<In, Out> {
  postMessage(message: Out): void;
  onMessage(listener: (message: In) => void): () => void;
}
