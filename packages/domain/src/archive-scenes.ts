/**
 * Which archive scenes can be ordered together in one item, and what to do when they cannot.
 * Defined once: the reference service refuses an archive item by this rule (orders/quote.ts),
 * and the client's outbox checks it offline at enqueue (`@eo/sync`), so nothing queued fails on
 * reconnect for a reason the device could have known.
 *
 * One item is delivered in one bandset, and a bandset can be taken from a scene only when the
 * scene's satellite has every band of it.
 */

/** A bandset fits a satellite when the satellite has every band of the bandset. */
export function bandsetFits(bandsetBands: readonly string[], satelliteBands: readonly string[]) {
  return bandsetBands.every((b) => satelliteBands.includes(b));
}

/** The first of `bandsets` that fits the satellite of every scene (`sceneBands`: per scene). */
export function sharedBandset<B extends { readonly bands: readonly string[] }>(
  bandsets: readonly B[],
  sceneBands: ReadonlyArray<readonly string[]>,
): B | undefined {
  return bandsets.find((b) => sceneBands.every((s) => bandsetFits(b.bands, s)));
}

/**
 * The first scene (index > 0) whose bands have none in common with the scenes before it, or -1.
 * A bandset has at least one band, so from such a scene on no bandset can fit every scene: the
 * offline form of `sharedBandset` for a device that knows each scene's bands (its STAC
 * `eo:bands`) but not the service's bandsets. It never refuses scenes the service could accept.
 */
export function firstSceneSharingNoBand(sceneBands: ReadonlyArray<readonly string[]>): number {
  let common: readonly string[] | undefined;
  for (const [k, bands] of sceneBands.entries()) {
    common = common === undefined ? bands : common.filter((b) => bands.includes(b));
    if (k > 0 && common.length === 0) return k;
  }
  return -1;
}

/**
 * The fix for an item whose scenes share no bandset: one item per satellite, each with that
 * satellite's scenes, in the order they first appear; named `<name> (<satellite>)`. Scenes of
 * an unknown satellite (`satelliteOf` gives undefined) stay with the first item.
 *
 * A bandset the item names was chosen for one satellite: it stays only with the items whose
 * scenes it fits (`bandsetFitsScenes`; without it, with the first item only, whose satellite
 * the item was most likely composed for), and the others name none, so the service takes a
 * bandset of their own satellite (it never refuses an item of one satellite without one).
 */
export function splitBySatellite<
  I extends {
    readonly name: string;
    readonly item_ids?: string[];
    readonly bandset?: { readonly bandset_id: string } | undefined;
  },
>(
  item: I,
  satelliteOf: (sceneId: string) => string | undefined,
  bandsetFitsScenes?: (sceneIds: readonly string[]) => boolean,
): I[] {
  const groups = new Map<string, string[]>();
  let first: string | undefined;
  for (const id of item.item_ids ?? []) {
    const sat = satelliteOf(id) ?? first ?? '';
    first ??= sat;
    groups.set(sat, [...(groups.get(sat) ?? []), id]);
  }
  if (groups.size < 2) return [item];
  return [...groups].map(([sat, ids], k) => {
    const split = { ...item, name: sat ? `${item.name} (${sat})` : item.name, item_ids: ids };
    const keeps = bandsetFitsScenes ? bandsetFitsScenes(ids) : k === 0;
    if (item.bandset === undefined || keeps) return split;
    const { bandset: _dropped, ...rest } = split;
    return rest as unknown as I;
  });
}
