/**
 * Rendered pictures, made once and kept on disk under `<dataDir>/quicklooks/`. A file is named
 * by the hash of everything its bytes depend on (renderer version, variant, scene), so the
 * name is also a strong ETag known before the file is read, a changed scene gets a new file,
 * and a half-written file is never served (written to a temp name, then renamed).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { QUICKLOOK_PIXELS, type QuicklookVariant } from '@eo/domain';
import { encodePng } from './png';
import { RENDERER_VERSION, renderQuicklook, type QuicklookScene } from './quicklook';

export interface StoredPicture {
  /** Strong ETag, quoted. */
  readonly etag: string;
  readonly bytes: Buffer;
}

export function quicklookKey(scene: QuicklookScene, variant: QuicklookVariant): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: RENDERER_VERSION, variant, scene }))
    .digest('hex')
    .slice(0, 40);
}

export class QuicklookStore {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'quicklooks');
  }

  etagOf(scene: QuicklookScene, variant: QuicklookVariant): string {
    return `"ql-${quicklookKey(scene, variant)}"`;
  }

  private fileOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.png`);
  }

  /** The picture, rendered and stored on first use. */
  get(scene: QuicklookScene, variant: QuicklookVariant): StoredPicture {
    const key = quicklookKey(scene, variant);
    const file = this.fileOf(key);
    const etag = `"ql-${key}"`;
    try {
      return { etag, bytes: fs.readFileSync(file) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const bytes = encodePng(renderQuicklook(scene, QUICKLOOK_PIXELS[variant]));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, file);
    return { etag, bytes };
  }
}
