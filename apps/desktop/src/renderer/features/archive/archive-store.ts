/**
 * Saved archive searches (desktop store) and the scenes the mirror keeps for the chosen one:
 * read again when a sync ends (its archive pass may have changed them).
 */
import { defineStore } from 'pinia';
import type {
  ArchiveSceneRow,
  ArchiveSearchInput,
  SavedArchiveSearchView,
} from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';

export const useArchiveStore = defineStore('archive', {
  state: () => ({
    searches: [] as SavedArchiveSearchView[],
    loaded: false,
    error: null as ReadableError | null,
    /** The search whose scenes are shown. */
    chosenId: null as string | null,
    scenes: [] as ArchiveSceneRow[],
    scenesLoading: false,
    /** The scene hovered or focused in the list or on the map (its outline highlighted). */
    hoveredSceneId: null as string | null,
    /** The scene picked in the list or on the map. */
    selectedSceneId: null as string | null,
    /** The saved search open in the form (saved again under its id). */
    editingId: null as string | null,
  }),
  getters: {
    chosen: (s) => s.searches.find((x) => x.id === s.chosenId) ?? null,
    editing: (s) => s.searches.find((x) => x.id === s.editingId) ?? null,
  },
  actions: {
    async load(): Promise<void> {
      try {
        this.searches = await useBridge().call('archive.searches');
        this.error = null;
        this.loaded = true;
        if (this.chosenId && !this.chosen) this.chosenId = null;
        if (this.editingId && !this.editing) this.editingId = null;
        this.chosenId ??= this.searches[0]?.id ?? null;
        await this.loadScenes();
      } catch (err) {
        this.error = readableError(err);
      }
    },
    async loadScenes(): Promise<void> {
      const id = this.chosenId;
      if (id === null) {
        this.scenes = [];
        return;
      }
      this.scenesLoading = true;
      try {
        const scenes = await useBridge().call('archive.scenes', { searchId: id });
        if (this.chosenId === id) {
          this.scenes = scenes;
          if (!scenes.some((x) => x.id === this.selectedSceneId)) this.selectedSceneId = null;
        }
      } catch (err) {
        this.error = readableError(err);
      } finally {
        this.scenesLoading = false;
      }
    },
    async choose(id: string): Promise<void> {
      this.chosenId = id;
      this.selectedSceneId = null;
      this.hoveredSceneId = null;
      await this.loadScenes();
    },
    /** Saves (throws the backend's refusal for the form to place); the saved one is chosen. */
    async save(input: ArchiveSearchInput): Promise<SavedArchiveSearchView> {
      const saved = await useBridge().call('archive.save', input);
      this.chosenId = saved.id;
      this.editingId = null;
      await this.load();
      return saved;
    },
    async remove(id: string): Promise<void> {
      try {
        await useBridge().call('archive.remove', { id });
        if (this.chosenId === id) this.chosenId = null;
        await this.load();
      } catch (err) {
        this.error = readableError(err);
      }
    },
    /** Re-read after every sync; returns the unsubscribe. */
    follow(): () => void {
      return useBridge().on('sync.finished', () => void this.load());
    },
  },
});
