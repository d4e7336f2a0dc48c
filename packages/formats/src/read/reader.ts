/** What each format's reader gives back. */
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';

export interface ReadResult {
  readonly features: RawFeature[];
  /** The source CRS, when the file named one that is not WGS 84 longitude/latitude. */
  readonly sourceCrs: string | null;
  /** What was assumed while reading, for the preview to show ("no .prj: read as WGS 84 lon/lat"). */
  readonly warnings?: readonly string[];
}

export type Reader = (bytes: Uint8Array, limits: ImportLimits) => Promise<ReadResult> | ReadResult;

export function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
