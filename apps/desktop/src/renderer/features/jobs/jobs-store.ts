/** Jobs this client started from workflows (read from the mirror), newest first. */
import type { Job } from '@eo/domain';
import { defineStore } from 'pinia';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { latestOnly } from '../../stores/latest';

const loads = latestOnly();

export const useJobsStore = defineStore('jobs', {
  state: () => ({
    jobs: [] as Job[],
    loading: false,
    loaded: false,
    error: null as ReadableError | null,
  }),
  actions: {
    async load(): Promise<void> {
      const current = loads.begin();
      this.loading = true;
      try {
        const jobs = await useBridge().call('jobs.list');
        if (!current()) return;
        this.jobs = jobs;
        this.error = null;
        this.loaded = true;
      } catch (err) {
        if (current()) this.error = readableError(err);
      } finally {
        if (current()) this.loading = false;
      }
    },
  },
});
