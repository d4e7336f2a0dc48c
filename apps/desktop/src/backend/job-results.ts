/**
 * `jobs.results`: a finished job's results, packaged by the service and read from the package's
 * signed URL (@eo/sync's `fetchJobResults`), as a file to save. Online only; the service's
 * failures are said as the other online calls say them (quote.ts).
 */
import { fetchJobResults, JobResultsError } from '@eo/sync';
import type { EoClient } from '@eo/api-client';
import type { Job } from '@eo/domain';
import { ContractError, type Output } from '../shared/contract';
import type { NoService } from './no-service';
import { requireClient, serviceCallError } from './quote';

export async function jobResults(
  connection: { url: string; client: EoClient; signal: AbortSignal } | null,
  job: Job | undefined,
  jobId: string,
  noService?: NoService,
): Promise<Output<'jobs.results'>> {
  if (!job) {
    throw new ContractError(
      'invalid_argument',
      `No job ${jobId} in the mirror: sync, then try again.`,
    );
  }
  const client = requireClient(connection?.client ?? null, noService);
  const { url, signal } = connection!;
  try {
    const file = await fetchJobResults(client, { workflowId: job.workflow_id, jobId }, url, {
      signal,
    });
    return {
      fileName: file.fileName,
      mediaType: file.mediaType,
      features: 0,
      bytes: file.bytes.byteLength,
      base64: Buffer.from(file.bytes).toString('base64'),
    };
  } catch (e) {
    if (signal.aborted) {
      throw new ContractError(
        'offline',
        'The service changed while the results were read: try again.',
      );
    }
    if (e instanceof JobResultsError) {
      // Not ready yet is a moment's wait, like a busy service; the rest is the package's fault.
      throw new ContractError(e.problem === 'not_ready' ? 'busy' : 'conflict', e.message);
    }
    throw serviceCallError(e, "Reading the job's results");
  }
}
