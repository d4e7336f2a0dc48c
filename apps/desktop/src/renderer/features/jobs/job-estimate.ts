/**
 * The cost of a job before it is queued: the service's estimate for the workflow over the
 * project's AOIs (`jobs.estimate`, online only). An estimate belongs to the workflow and project
 * it was asked for: once either changes it is no longer shown (nor named in the queue message).
 */
import { computed, ref } from 'vue';
import type { JobEstimate } from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { latestOnly } from '../../stores/latest';

interface Target {
  readonly workflowId: string;
  readonly projectId: string;
}

const keyOf = (t: Target) => `${t.workflowId.trim()}\n${t.projectId.trim()}`;

/** "About 42 credits over 3 AOIs": an estimate as a person reads it. */
export function estimateText(e: JobEstimate): string {
  const credits = `${e.estimatedCost} credit${e.estimatedCost === 1 ? '' : 's'}`;
  if (e.aoiCount === null) return `About ${credits}`;
  return `About ${credits} over ${e.aoiCount} AOI${e.aoiCount === 1 ? '' : 's'}`;
}

export function useJobEstimate(target: () => Target) {
  const asks = latestOnly();
  const answer = ref<{ key: string; estimate: JobEstimate | null } | null>(null);
  const error = ref<ReadableError | null>(null);
  const asking = ref(false);

  /** The estimate of the form's current workflow and project, if one was asked for. */
  const current = computed(() =>
    answer.value && answer.value.key === keyOf(target()) ? answer.value : null,
  );

  async function ask(): Promise<void> {
    const t = target();
    const workflowId = t.workflowId.trim();
    if (!workflowId) return;
    const projectId = t.projectId.trim();
    const mine = asks.begin();
    asking.value = true;
    error.value = null;
    try {
      const estimate = await useBridge().call('jobs.estimate', {
        workflowId,
        ...(projectId ? { projectId } : {}),
      });
      if (mine()) answer.value = { key: keyOf(t), estimate };
    } catch (err) {
      if (mine()) error.value = readableError(err);
    } finally {
      if (mine()) asking.value = false;
    }
  }

  /** " (estimated 42 credits)" for the queue message, when the estimate is the queued job's. */
  function note(queued: Target): string {
    const a = answer.value;
    if (!a?.estimate || a.key !== keyOf(queued)) return '';
    return ` (estimated ${a.estimate.estimatedCost} credits)`;
  }

  return { current, error, asking, ask, note };
}
