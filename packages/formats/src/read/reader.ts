/** What each format's reader gives back. */
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';

export interface ReadResult {
  readonly features: RawFeature[];
  /** The source CRS, when the file named one that is not WGS 84 longitude/latitude. */
  readonly sourceCrs: string | null;
}

export type Reader = (bytes: Uint8Array, limits: ImportLimits) => Promise<ReadResult> | ReadResult;

export function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
