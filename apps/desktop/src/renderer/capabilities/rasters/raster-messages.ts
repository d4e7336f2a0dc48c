/**
 * Messages between the page and the raster worker (raster.worker.ts): numbered requests and
 * their answers. Tiles come back as ImageBitmaps painted in the worker, transferred (not copied):
 * the page's canvases show them as they are.
 */
import type { MapTile } from './raster-grid';
import type { ViewArea } from './raster-read-ahead';
import type { IndexStyle, RasterStyle } from './raster-style';

export type ToWorker =
  | { readonly type: 'open'; readonly req: number; readonly id: string; readonly url: string }
  | { readonly type: 'close'; readonly id: string }
  | { readonly type: 'bandStats'; readonly req: number; readonly id: string }
  | {
      readonly type: 'indexStats';
      readonly req: number;
      readonly id: string;
      readonly style: IndexStyle;
    }
  | {
      readonly type: 'tile';
      readonly req: number;
      readonly id: string;
      readonly tile: MapTile;
      readonly style: RasterStyle;
    }
  | { readonly type: 'cancel'; readonly req: number }
  /**
   * The map's view after a move: decode ahead of it (no answer; a newer view replaces it). Null:
   * the map started moving, stop decoding ahead until its next view.
   */
  | { readonly type: 'readAhead'; readonly id: string; readonly view: ViewArea | null }
  | {
      readonly type: 'pixel';
      readonly req: number;
      readonly id: string;
      readonly lon: number;
      readonly lat: number;
      readonly index: IndexStyle | null;
    };

export type FromWorker =
  | { readonly req: number; readonly ok: true; readonly value: unknown }
  | { readonly req: number; readonly ok: false; readonly error: string };
