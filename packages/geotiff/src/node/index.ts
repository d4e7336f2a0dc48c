/**
 * `@eo/geotiff/node`: the Node side of the codec's injected parts (the service, sync, the CLI
 * and the desktop backend): zlib as the compression, and files as range sources and
 * positional sinks. The renderer never imports this entry (lint-enforced).
 */
import type { FileHandle } from 'node:fs/promises';
import zlib from 'node:zlib';
import type { Compression } from '../codec';
import type { RangeSource } from '../read/source';
import type { PositionalSink } from '../write/cog';

/** Node's zlib; inflate stops at `maxBytes` (a deflate bomb costs one tile's bytes). */
export const nodeCompression: Compression = {
  inflate: (bytes, maxBytes) => zlib.inflateSync(bytes, { maxOutputLength: Math.max(1, maxBytes) }),
  deflate: (bytes, level) => zlib.deflateSync(bytes, { level }),
};

/** A range source over an open file (its size read once). */
export async function fileSource(handle: FileHandle): Promise<RangeSource> {
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = Buffer.alloc(n);
      let got = 0;
      while (got < n) {
        const { bytesRead } = await handle.read(buf, got, n - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    },
  };
}

/** A positional sink writing into an open file. */
export function fileSink(handle: FileHandle): PositionalSink {
  return {
    async write(offset, bytes) {
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await handle.write(
          bytes,
          done,
          bytes.length - done,
          offset + done,
        );
        done += bytesWritten;
      }
    },
  };
}
