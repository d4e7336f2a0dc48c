/**
 * A saved archive search: a satellite image search (4.5 POST /v0/search) a user keeps by name,
 * the way Planet Explorer or EO Browser keep saved searches, whose results the mirror keeps for
 * offline use (`@eo/sync`'s archive pass). Defined once: the sync engine, the `eo` CLI
 * (`eo sync --archive-file`) and the desktop (its store and IPC contract) read it here.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { checkSearchWindow, SatelliteSearchCriteria } from './requests/satellite-search';

export const SavedArchiveSearch = z.strictObject({
  /** The saver's id (the desktop's UUID, a CLI file's own); names the search's scene list. */
  id: z.string().trim().min(1, 'id is required').max(200),
  name: z.string().trim().min(1, 'name is required').max(200),
  /** The search body without paging: the mirror pages it up to `maxScenes`. */
  search: SatelliteSearchCriteria.superRefine(checkSearchWindow),
  /** Scenes kept, newest first as the service orders them. */
  maxScenes: z
    .number()
    .int()
    .min(1, 'maxScenes must be at least 1')
    .max(
      LIMITS.savedArchiveSearchMaxScenes,
      `maxScenes must be at most ${LIMITS.savedArchiveSearchMaxScenes}`,
    )
    .default(LIMITS.savedArchiveSearchDefaultScenes),
});
export type SavedArchiveSearch = z.infer<typeof SavedArchiveSearch>;
export type SavedArchiveSearchInput = z.input<typeof SavedArchiveSearch>;

/** Saved archive searches given together (a sync's, a CLI file's): ids unique. */
export const SavedArchiveSearchList = z.array(SavedArchiveSearch).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.id))
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate id ${s.id}` });
    seen.add(s.id);
  });
});
