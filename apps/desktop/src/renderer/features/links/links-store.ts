/**
 * Opening a record link (@eo/domain's record-link.ts) from the mirror, offline: the scene in the
 * catalog's detail panel, the AOI or the order open on its screen, a search's filters run in
 * the catalog. A record this mirror does not hold is said plainly, with what to do. Links come
 * as the route `#/link/<kind>/<id>` (browser mode, and what Electron's `link.opened` event
 * turns into), so a link has one way in.
 */
import {
  recordLinkFromParts,
  recordLinkParts,
  type RecordLink,
  type RecordLinkResult,
} from '@eo/domain';
import { defineStore } from 'pinia';
import type { LocationQuery, RouteLocationRaw } from 'vue-router';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { useCatalogStore } from '../catalog/catalog-store';
import type { Screen } from '../../router';

/** The route of a link: `/link/scene/<id>`, `/link/search?name=…&q=…`. */
export function linkLocation(link: RecordLink): RouteLocationRaw {
  const parts = recordLinkParts(link);
  if (parts.id !== undefined)
    return { path: `/link/${parts.kind}/${encodeURIComponent(parts.id)}` };
  return {
    path: `/link/${parts.kind}`,
    query: { ...(parts.name ? { name: parts.name } : {}), q: parts.q ?? '{}' },
  };
}

const one = (v: LocationQuery[string] | undefined): string | undefined =>
  typeof v === 'string' ? v : undefined;

/** A link from its route (vue-router has decoded the params and the query). */
export function linkFromRoute(route: {
  params: Record<string, string | string[] | undefined>;
  query: LocationQuery;
}): RecordLinkResult {
  const kind = route.params['kind'];
  const id = route.params['id'];
  return recordLinkFromParts({
    kind: typeof kind === 'string' ? kind : '',
    id: typeof id === 'string' && id !== '' ? id : undefined,
    name: one(route.query['name']),
    q: one(route.query['q']),
  });
}

export interface LinkNotice {
  readonly tone: 'info' | 'error';
  readonly text: string;
}

const WHAT: Record<Exclude<RecordLink['kind'], 'search'>, string> = {
  scene: 'Scene',
  aoi: 'AOI',
  order: 'Order',
};

const notHeld = (link: Exclude<RecordLink, { kind: 'search' }>) =>
  `${WHAT[link.kind]} ${link.id} is not in this mirror: sync, or open a field package that holds it, then open the link again.`;

export const useLinksStore = defineStore('links', {
  state: () => ({ notice: null as LinkNotice | null }),
  actions: {
    /** Goes where the link points; returns the screen to show. */
    async open(link: RecordLink): Promise<Screen> {
      this.notice = null;
      try {
        return await this.resolve(link);
      } catch (err) {
        this.notice = {
          tone: 'error',
          text: `The link could not be opened: ${readableError(err).message}`,
        };
        return 'catalog';
      }
    },

    async resolve(link: RecordLink): Promise<Screen> {
      const bridge = useBridge();
      switch (link.kind) {
        case 'scene': {
          const record = await bridge.call('catalog.get', { id: link.id });
          if (!record) return this.refuse(notHeld(link), 'catalog');
          useCatalogStore().pick(link.id, { source: 'list' });
          return 'catalog';
        }
        case 'aoi': {
          // The AOIs' and orders' code loads with their screens, not with the app's first JS.
          const { useAoisStore } = await import('../aois/aois-store');
          const aois = useAoisStore();
          aois.filters = { status: [], projectId: '', text: '' };
          await aois.load();
          if (!aois.aois.some((a) => a.aoi_id === link.id))
            return this.refuse(notHeld(link), 'aois');
          aois.select(link.id);
          return 'aois';
        }
        case 'order': {
          const held = await bridge.call('orders.list', { ids: [link.id] });
          if (held.length === 0) return this.refuse(notHeld(link), 'orders');
          const { emptyOrderFilters, useOrdersStore } = await import('../orders/orders-store');
          const orders = useOrdersStore();
          orders.filters = emptyOrderFilters();
          await orders.load();
          orders.select(link.id);
          return 'orders';
        }
        case 'search': {
          await useCatalogStore().applySearch(link.query);
          this.notice = {
            tone: 'info',
            text: `Search ${link.name ? `“${link.name}” ` : ''}from a link: its filters are set; save it to keep it.`,
          };
          return 'catalog';
        }
      }
    },

    refuse(text: string, screen: Screen): Screen {
      this.notice = { tone: 'error', text };
      return screen;
    },

    /** A link that is not one (a hand-typed or damaged address). */
    unreadable(reason: string): void {
      this.notice = { tone: 'error', text: `This link cannot be opened: ${reason}.` };
    },

    dismiss(): void {
      this.notice = null;
    },
  },
});
