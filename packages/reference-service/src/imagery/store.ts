/**
 * Rendered pictures, made once and kept on disk under `<dataDir>/quicklooks/`. A file is named
 * by the hash of everything its bytes depend on (renderer version, variant, scene), so the
 * name is also a strong ETag known before the file is read, a changed scene gets a new file,
 * and a half-written file is never served (written to a temp name, then renamed). A missing
 * picture is rendered on the render pool (a worker thread, in the asking organisation's share),
 * once however many requests for it arrive while it renders.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { QuicklookVariant } from '@eo/domain';
import type { RenderPool } from '../render/pool';
import { RENDERER_VERSION, type QuicklookScene } from './quicklook';

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
  /** Renders under way, by key: a second request for the same picture waits for the first. */
  private readonly rendering = new Map<string, Promise<Buffer>>();

  constructor(
    dataDir: string,
    private readonly pool: RenderPool,
    /** Told when a rendered picture could not be stored (it is sent all the same). */
    private readonly warn: (msg: string, err: unknown) => void = () => undefined,
  ) {
    this.dir = path.join(dataDir, 'quicklooks');
  }

  etagOf(scene: QuicklookScene, variant: QuicklookVariant): string {
    return `"ql-${quicklookKey(scene, variant)}"`;
  }

  private fileOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.png`);
  }

  /** The picture, rendered (on `owner`'s share of the pool) and stored on first use. */
  async get(
    scene: QuicklookScene,
    variant: QuicklookVariant,
    owner: string,
  ): Promise<StoredPicture> {
    const key = quicklookKey(scene, variant);
    const file = this.fileOf(key);
    const etag = `"ql-${key}"`;
    try {
      return { etag, bytes: await fs.readFile(file) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    let render = this.rendering.get(key);
    if (!render) {
      render = this.render(scene, variant, owner, file).finally(() => this.rendering.delete(key));
      this.rendering.set(key, render);
    }
    return { etag, bytes: await render };
  }

  private async render(
    scene: QuicklookScene,
    variant: QuicklookVariant,
    owner: string,
    file: string,
  ): Promise<Buffer> {
    const png = await this.pool.run(owner, 'quicklook', { scene, variant });
    const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file);
    } catch (e) {
      // A full disk loses the stored copy, not the picture: sent now, rendered again next time.
      await fs.rm(tmp, { force: true });
      this.warn('a rendered quicklook could not be stored', e);
    }
    return bytes;
  }
}
