/**
 * Asking the service for a download exactly once, then following it to `success`.
 *
 * The row's Idempotency-Key is written when the row is made, before anything is sent, and
 * `request_sent` is set just before each send (cleared when the failure proves nothing left:
 * a refused connection). So a row found `requesting` after a kill -9 with `request_sent` set may
 * already be on the service: it is sent again with the same key only to a service that says it
 * honours the key (`client.capabilities`; one cheap read asks when unknown), which then replays
 * its first answer instead of making a second download. Any other service leaves the row
 * `unconfirmed`, and the user decides (`resend`, or the download's id when they know it), as
 * the outbox does with creates in doubt.
 */
import { EoClientError, type DownloadState, type EoClient } from '@eo/api-client';
import { mayHaveCreated } from '../outbox/in-doubt';
import type { OfflineRasterRow, OfflineRasterStore } from './store';

export class DownloadRequestError extends Error {
  constructor(
    message: string,
    /** The row as it was left. */
    readonly row: OfflineRasterRow,
  ) {
    super(message);
    this.name = 'DownloadRequestError';
  }
}

export interface RequestOptions {
  readonly signal?: AbortSignal | undefined;
  /** The user's answer to an unconfirmed request: send it again (the same key). */
  readonly resend?: boolean | undefined;
  /** The user's answer to an unconfirmed request: the download the service made. */
  readonly downloadId?: string | undefined;
}

/** Does the service say it honours the key? Still unknown: one cheap read asks it. */
async function keyHonoured(client: EoClient, signal: AbortSignal | undefined): Promise<boolean> {
  if (client.capabilities.idempotencyKey === 'unknown') {
    await client.listIndices({ limit: 1 }, { signal }).catch((e: unknown) => {
      if (!(e instanceof EoClientError)) throw e;
    });
  }
  return client.capabilities.idempotencyKey === 'honoured';
}

function send(client: EoClient, row: OfflineRasterRow, signal: AbortSignal | undefined) {
  const options = { idempotencyKey: row.idempotency_key, signal };
  switch (row.scene_kind) {
    case 'catalog':
      return client.downloads.createForCatalog({ catalog_ids: [row.scene_ref] }, options);
    case 'order_item':
      return client.downloads.createForCatalog({ order_item_ids: [row.scene_ref] }, options);
    default:
      return client.downloads.createForAoi(
        row.aoi_id ?? '',
        { asset_ids: [row.scene_ref] },
        options,
      );
  }
}

/** Sends the create (unless the row has its download already); returns the row `following`. */
export async function requestDownload(
  client: EoClient,
  store: OfflineRasterStore,
  rowIn: OfflineRasterRow,
  options: RequestOptions = {},
): Promise<OfflineRasterRow> {
  let row = rowIn;
  if (row.download_id !== null) return row;
  if (options.downloadId) {
    return store.update(row.id, {
      download_id: options.downloadId,
      state: 'following',
      request_sent: 1,
      message: null,
    });
  }
  const inDoubt =
    row.state === 'unconfirmed' || (row.state === 'requesting' && row.request_sent === 1);
  if (inDoubt && !options.resend && !(await keyHonoured(client, options.signal))) {
    row = store.update(row.id, {
      state: 'unconfirmed',
      message:
        'the download request may have reached the service, which does not say it honours Idempotency-Key: ask again (resend) or give the id of the download it made',
    });
    throw new DownloadRequestError(row.message!, row);
  }
  row = store.update(row.id, { state: 'requesting', request_sent: 1 });
  let answer: DownloadState;
  try {
    answer = await send(client, row, options.signal);
  } catch (e) {
    if (e instanceof EoClientError && !mayHaveCreated(e))
      row = store.update(row.id, { request_sent: 0, message: e.message });
    else row = store.update(row.id, { message: e instanceof Error ? e.message : String(e) });
    throw e;
  }
  return store.update(row.id, { download_id: answer.id, state: 'following', message: null });
}

export interface FollowOptions {
  readonly signal?: AbortSignal | undefined;
  /** First wait between reads; doubled up to `maxPollMs`. */
  readonly pollMs?: number | undefined;
  readonly maxPollMs?: number | undefined;
  /** Longest wait for the service to finish (the row stays `following`: a later run goes on). */
  readonly maxWaitMs?: number | undefined;
  readonly onStatus?: ((d: DownloadState) => void) | undefined;
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(signal!.reason as Error);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The download's state until it is `success` (returned) or `failed` (the row failed, thrown). */
export async function followDownload(
  client: EoClient,
  store: OfflineRasterStore,
  row: OfflineRasterRow,
  options: FollowOptions = {},
): Promise<DownloadState> {
  const sleep = options.sleep ?? abortableSleep;
  const started = Date.now();
  let wait = options.pollMs ?? 1000;
  const id = row.download_id!;
  for (;;) {
    const read =
      row.scene_kind === 'aoi_asset'
        ? await client.downloads.getForAoi(row.aoi_id ?? '', id, { signal: options.signal })
        : await client.downloads.getForCatalog(id, { signal: options.signal });
    if (read === null) {
      const failed = store.update(row.id, {
        state: 'failed',
        message: `the service does not know download ${id}`,
      });
      throw new DownloadRequestError(failed.message!, failed);
    }
    options.onStatus?.(read);
    if (read.status === 'success' && read.signedUrl) return read;
    if (read.status === 'failed') {
      const failed = store.update(row.id, {
        state: 'failed',
        message: `the service could not prepare download ${id}${read.reason ? `: ${read.reason}` : ''}`,
      });
      throw new DownloadRequestError(failed.message!, failed);
    }
    if (Date.now() - started > (options.maxWaitMs ?? 30 * 60_000))
      throw new DownloadRequestError(
        `download ${id} is still ${read.rawStatus ?? 'not ready'}: run again to go on waiting`,
        row,
      );
    await sleep(wait, options.signal);
    wait = Math.min(wait * 2, options.maxPollMs ?? 10_000);
  }
}
