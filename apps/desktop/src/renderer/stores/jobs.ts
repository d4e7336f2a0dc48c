/** Jobs this client started from workflows (read from the mirror), newest first. */
import type { Job } from '@eo/domain';
import { defineStore } from 'pinia';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';

export const useJobsStore = defineStore('jobs', {
  state: () => ({
    jobs: [] as Job[],
    loading: false,
    loaded: false,
    error: null as ReadableError | null,
  }),
  actions: {
    async load(): Promise<void> {
      this.loading = true;
      try {
        this.jobs = await useBridge().call('jobs.list');
        this.error = null;
        this.loaded = true;
      } catch (err) {
        this.error = readableError(err);
      } finally {
        this.loading = false;
      }
    },
  },
});
