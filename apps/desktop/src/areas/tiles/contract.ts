/** Basemap tiles, fetched and cached by the backend (the page loads nothing from the network). */
import { z } from 'zod';

const tileIndex = z.number().int().min(0);
export const TileRequest = z
  .object({ z: z.number().int().min(0).max(22), x: tileIndex, y: tileIndex })
  .strict()
  .superRefine((t, ctx) => {
    const n = 2 ** t.z;
    if (t.x >= n)
      ctx.addIssue({ code: 'custom', path: ['x'], message: `x must be below ${n} at z=${t.z}` });
    if (t.y >= n)
      ctx.addIssue({ code: 'custom', path: ['y'], message: `y must be below ${n} at z=${t.z}` });
  });

export const tilesMethods = {
  /**
   * null when no tile URL is set; a tile neither cached nor fetched fails with the reason in
   * words (`offline`: not reached; `internal`: an HTTP error, not an image; `working_offline`:
   * the "Work offline" switch is on, so only cached tiles are served).
   */
  'tiles.get': {
    input: TileRequest,
    output: z.object({ contentType: z.string(), base64: z.string() }).nullable(),
  },
} as const;
