/**
 * Saved archive searches: satellite searches (spec 4.5) a user keeps by name, whose scenes the
 * sync keeps for offline browsing (@eo/sync's archive pass), and those scenes.
 */
import { SavedArchiveSearch, SatelliteSearchCriteria } from '@eo/domain';
import { z } from 'zod';
import { id, none } from '../../shared/contract/fields';

/** A search to save: the domain's schema, the id absent for a new one (the backend picks it). */
export const ArchiveSearchInput = SavedArchiveSearch.extend({ id: id.optional() });
export type ArchiveSearchInput = z.input<typeof ArchiveSearchInput>;

const count = z.number().int().min(0);

/** Where a saved search's last archive pass stands (null: not run yet). */
export const ArchivePass = z.object({
  state: z.enum(['complete', 'incomplete', 'failed', 'never']),
  /** Scenes its list holds now. */
  scenes: count,
  total: count.nullable(),
  lastCompleteAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type ArchivePass = z.infer<typeof ArchivePass>;

export const SavedArchiveSearchView = z.object({
  id: z.string(),
  name: z.string(),
  search: SatelliteSearchCriteria,
  maxScenes: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  pass: ArchivePass.nullable(),
});
export type SavedArchiveSearchView = z.infer<typeof SavedArchiveSearchView>;

/** One kept scene, as the list shows it (its thumbnail through the quicklook URL of its id). */
export const ArchiveSceneRow = z.object({
  id: z.string(),
  rank: count,
  satelliteId: z.string().nullable(),
  collectionId: z.string().nullable(),
  datetime: z.string().nullable(),
  cloudCover: z.number().nullable(),
  /** [west, south, east, north] */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  /** The outline the map draws (its picture warped onto it): flat [lon, lat, ...], not closed. */
  footprint: z
    .array(z.number().finite())
    .refine((r) => r.length >= 6 && r.length % 2 === 0, 'a ring of at least 3 [lon, lat] points')
    .nullable(),
  thumbnail: z.boolean(),
});
export type ArchiveSceneRow = z.infer<typeof ArchiveSceneRow>;

export const archiveMethods = {
  'archive.searches': { input: none, output: z.array(SavedArchiveSearchView) },
  'archive.save': { input: ArchiveSearchInput, output: SavedArchiveSearchView },
  'archive.remove': {
    input: z.object({ id }).strict(),
    output: z.object({ removed: z.boolean() }),
  },
  'archive.scenes': {
    input: z.object({ searchId: id }).strict(),
    output: z.array(ArchiveSceneRow),
  },
} as const;
