/** The mirror: syncing it from the service, its status per resource, clearing it. */
import { SyncResource } from '@eo/domain';
import { z } from 'zod';
import { none } from '../../shared/contract/fields';

/** The mirrored resources: defined once, in @eo/domain (the sync engine's order). */
export { SyncResource };

export const SyncError = z.object({
  code: z.string(),
  message: z.string(),
  /** What to do about it. */
  hint: z.string(),
});
export type SyncError = z.infer<typeof SyncError>;

export const SyncStatus = z.object({
  running: z.boolean(),
  resources: z.array(
    z.object({
      resource: SyncResource,
      lastCompleteAt: z.string().nullable(),
      lastError: SyncError.nullable(),
      /** Records of this resource in the mirror. */
      count: z.number().int().min(0),
      /** Records of the last pass that differ from the spec (`eo status --drift` lists them). */
      drift: z.number().int().min(0).optional(),
      /** Mirrored records with fields that could not be indexed (filters on them never match). */
      notIndexed: z.number().int().min(0).optional(),
      /** The last pass could not know a list whole (nothing was removed). */
      incomplete: z.boolean().optional(),
      /** Why, in words: which list, what the service did (`incompleteReason` of @eo/sync). */
      incompleteReason: z.string().nullable().optional(),
    }),
  ),
  /**
   * Services other than the configured one whose data the mirror holds (synced before the
   * service URL changed; kept until `mirror.clear`): origins, or `embedded` for the built-in
   * demo service. `lastCompleteAt` only ever counts syncs against the configured service.
   */
  otherServices: z.array(z.string()).optional(),
  /** The mirrored quicklooks (what `eo status` counts) and how the last imagery pass went. */
  imagery: z
    .object({
      thumbnails: z.number().int().min(0),
      overviews: z.number().int().min(0),
      /** Index maps of the AOIs' visualizations (one per date). */
      indexMaps: z.number().int().min(0).optional(),
      bytes: z.number().int().min(0),
      lastRun: z
        .object({
          fetched: z.number().int().min(0),
          /** Not fetched: network errors, refused or expired URLs, bodies that are no PNG. */
          failed: z.number().int().min(0),
          /** Not fetched: the budget is full. */
          overBudget: z.number().int().min(0),
          lastError: z.string().nullable(),
        })
        .nullable(),
    })
    .optional(),
  /** What the saved archive searches keep offline (`mirror.archive.counts()`). */
  archive: z
    .object({
      /** Saved searches the mirror has run. */
      searches: z.number().int().min(0),
      /** Scenes kept (each once, whichever searches list it). */
      scenes: z.number().int().min(0),
      /** Their stored thumbnails and overviews, and the bytes those take. */
      thumbnails: z.number().int().min(0),
      overviews: z.number().int().min(0),
      bytes: z.number().int().min(0),
    })
    .optional(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const syncMethods = {
  'mirror.clear': { input: none, output: z.object({ cleared: z.literal(true) }) },
  'sync.run': {
    input: z
      .object({ resources: z.array(SyncResource).min(1).optional() })
      .strict()
      .optional(),
    output: SyncStatus,
  },
  'sync.cancel': { input: none, output: SyncStatus },
  'sync.status': { input: none, output: SyncStatus },
} as const;

export const syncEvents = {
  'sync.progress': z.object({
    resource: SyncResource,
    seen: z.number().int().min(0),
    total: z.number().int().min(0).nullable(),
  }),
  /** The imagery pass after the records: quicklooks dealt with of those missing, bytes fetched. */
  'sync.imagery': z.object({
    seen: z.number().int().min(0),
    total: z.number().int().min(0),
    bytes: z.number().int().min(0),
  }),
  'sync.finished': SyncStatus,
} as const;
