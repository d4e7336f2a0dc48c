/**
 * The basket's limits, apart from its contract (`contract.ts`): the page checks them before it
 * asks, and importing them from the contract built every one of its zod schemas in the page's
 * first script.
 */

/** How many records the basket holds ("Add all" of a large search stops there). */
export const MAX_BASKET = 1000;

/** At most this many scene ids in one `catalog.scenes` call (an order item's, a composer item's). */
export const MAX_SCENE_LOOKUP = 200;
