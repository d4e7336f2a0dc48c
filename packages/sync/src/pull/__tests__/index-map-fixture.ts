/** A mirror holding an AOI with a completed NDVI visualization, made through its own outbox. */
import type { EoClient } from '@eo/api-client';
import type { RunningServer } from '@eo/reference-service';
import { expect } from 'vitest';
import { openMirror, type Mirror } from '../../mirror/mirror';
import { aoiInput } from '../../outbox/__tests__/service';

export async function mirrorWithIndexedAoi(
  file: string,
  client: EoClient,
  service: { readonly server: RunningServer },
): Promise<{ mirror: Mirror; aoiId: string; visId: string }> {
  const mirror = openMirror(file);
  const aoi = mirror.outbox.enqueue('aoi', await aoiInput(client, `Index map AOI ${file}`));
  mirror.outbox.enqueue('visualization', {
    aoi_id: `local:${aoi.id}`,
    index_id: 'idx-ndvi-aurora',
    src_asset_ids: [`local:${aoi.id}#scenes`],
  });
  expect(await mirror.flush(client)).toMatchObject({ sent: 2, failed: 0 });
  await service.server.app.ctx.worker.drain();
  await mirror.refreshCreated(client);
  const [v] = mirror.records.visualizations();
  expect(v).toMatchObject({ status: 'success' });
  // The AOI and the indices mirrored too (the legend's fallbacks come from them).
  await mirror.sync(client, { resources: ['aois', 'indices'] });
  return { mirror, aoiId: String(v!['aoi_id']), visId: String(v!['id']) };
}
