/**
 * Zip entries of a KMZ or zipped Shapefile, inflated within the limits: the entry count and the
 * sum of the declared sizes are checked from the central directory before anything is inflated,
 * and fflate inflates each entry into a buffer of its declared size, so a zip bomb (a lie about
 * sizes included) costs at most `maxUncompressedBytes`.
 */
import { unzipSync } from 'fflate';
import type { ImportLimits } from '../limits';

export class ZipLimitError extends Error {}

export function unzipWithin(
  bytes: Uint8Array,
  limits: ImportLimits,
  wanted: (name: string) => boolean = () => true,
): Map<string, Uint8Array> {
  let entries = 0;
  let total = 0;
  const files = unzipSync(bytes, {
    filter(file) {
      entries += 1;
      if (entries > limits.maxZipEntries)
        throw new ZipLimitError(`the zip has more than ${limits.maxZipEntries} entries`);
      if (file.name.endsWith('/') || !wanted(file.name)) return false;
      total += file.originalSize;
      if (total > limits.maxUncompressedBytes)
        throw new ZipLimitError(
          `the zip inflates to more than ${limits.maxUncompressedBytes} bytes (a zip bomb?)`,
        );
      return true;
    },
  });
  return new Map(Object.entries(files));
}

/** Base name and lower-case extension of a zip entry (folders and case ignored). */
export function entryParts(name: string): { base: string; ext: string } {
  const file = name.split('/').pop() ?? name;
  const dot = file.lastIndexOf('.');
  return dot < 0
    ? { base: name, ext: '' }
    : {
        base: name.slice(0, name.length - file.length + dot),
        ext: file.slice(dot + 1).toLowerCase(),
      };
}
