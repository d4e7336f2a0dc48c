/**
 * A finished job's results as the service packages them (`PUT .../jobs/{job_id}/download`, the
 * provider's operation). The PUT is idempotent: it is asked again, with a growing wait, while the
 * package is being prepared (`created` / `in_progress`), up to a bound. The package is then read
 * from its signed URL without the API key (the signature is the permission, and the URL may be
 * another origin), with a bound on bytes and time: a broken service cannot fill the memory.
 */
import type { EoClient } from '@eo/api-client';
import { downloadStatusOf } from '@eo/domain';
import { signedFileUrl } from '../offline/remote-file';

/** Why there are no results to save; `message` says it in a user's words. */
export type JobResultsProblem = 'not_offered' | 'not_ready' | 'failed' | 'too_large' | 'unreadable';

export class JobResultsError extends Error {
  readonly problem: JobResultsProblem;
  constructor(problem: JobResultsProblem, message: string) {
    super(message);
    this.name = 'JobResultsError';
    this.problem = problem;
  }
}

export interface JobResults {
  readonly bytes: Uint8Array;
  readonly mediaType: string;
  /** A name to save it under: `job-<id>-results.json`. */
  readonly fileName: string;
}

export interface JobResultsOptions {
  readonly signal?: AbortSignal | undefined;
  /** Largest package read (default 32 MiB: a package is JSON about the job, not imagery). */
  readonly maxBytes?: number | undefined;
  /** Waits between asks while the package is prepared (default 1, 2, 4, 8 s: 15 s in all). */
  readonly waitsMs?: readonly number[] | undefined;
  /** The package's read, its body included (default 60 s). */
  readonly timeoutMs?: number | undefined;
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  readonly fetch?: typeof fetch | undefined;
}

export const JOB_RESULTS_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_WAITS_MS = [1_000, 2_000, 4_000, 8_000];

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** A file name from an id the service chose: only safe characters, bounded. */
const safeName = (id: string) => id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'job';

/** The package's signed URL once it is ready; asks again while the service prepares it. */
async function packageUrl(
  client: EoClient,
  job: { readonly workflowId: string; readonly jobId: string },
  serviceUrl: string,
  options: JobResultsOptions,
): Promise<URL> {
  const sleep = options.sleep ?? defaultSleep;
  const waits = options.waitsMs ?? DEFAULT_WAITS_MS;
  for (let asked = 0; ; asked++) {
    const answer = await client.extensions.downloadJob(job.workflowId, job.jobId, {
      signal: options.signal,
    });
    if (answer === null) {
      throw new JobResultsError(
        'not_offered',
        'The service has no results package for this job (it offers none, or no longer knows the job).',
      );
    }
    const status = downloadStatusOf(answer.status);
    if (status === 'failed') {
      throw new JobResultsError('failed', 'The service could not package the results of this job.');
    }
    if (status === 'success') {
      const url = answer.signed_url ? signedFileUrl(answer.signed_url, serviceUrl) : null;
      if (!url) {
        throw new JobResultsError(
          'unreadable',
          'The service said the results are ready but gave no address to read them from.',
        );
      }
      return url;
    }
    const wait = waits[asked];
    if (wait === undefined) {
      throw new JobResultsError(
        'not_ready',
        'The service is still packaging the results of this job; try again in a minute.',
      );
    }
    await sleep(wait, options.signal);
  }
}

/** The body of `res`, failing past `max` bytes (a Content-Length over it is refused unread). */
async function readBounded(res: Response, max: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new JobResultsError(
      'too_large',
      `The results package is larger than ${Math.round(max / 1024 / 1024)} MB; it was not saved.`,
    );
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) throw tooLarge();
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
    await res.body.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, total);
}

export async function fetchJobResults(
  client: EoClient,
  job: { readonly workflowId: string; readonly jobId: string },
  serviceUrl: string,
  options: JobResultsOptions = {},
): Promise<JobResults> {
  const url = await packageUrl(client, job, serviceUrl, options);
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let res: Response;
  try {
    // No Authorization: the key belongs to the service's origin, and the URL is signed.
    res = await (options.fetch ?? globalThis.fetch)(url, { signal, redirect: 'follow' });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    const why = deadline.aborted ? 'it took too long' : e instanceof Error ? e.message : String(e);
    throw new JobResultsError('unreadable', `The results package could not be read: ${why}.`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new JobResultsError(
      'unreadable',
      `The results package could not be read: the host answered ${res.status}.`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBounded(res, options.maxBytes ?? JOB_RESULTS_MAX_BYTES);
  } catch (e) {
    if (e instanceof JobResultsError || options.signal?.aborted) throw e;
    const why = deadline.aborted ? 'it took too long' : 'the connection was cut';
    throw new JobResultsError('unreadable', `The results package could not be read: ${why}.`);
  }
  const mediaType = res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/json';
  const ext =
    mediaType === 'application/json' ? 'json' : mediaType === 'application/zip' ? 'zip' : 'bin';
  return { bytes, mediaType, fileName: `job-${safeName(job.jobId)}-results.${ext}` };
}
