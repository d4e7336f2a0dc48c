/**
 * The app's way in for record links: the route `#/link/…` (typed, bookmarked, browser mode) and
 * Electron's `link.opened` event (main parsed the `eo-field-desk://` link the system handed it),
 * which becomes that route. Once the link is opened, the address is the screen it shows.
 */
import { watch } from 'vue';
import type { Router } from 'vue-router';
import { useBridge } from '../../stores/bridge-provider';
import { screenLocation } from '../../router';
import { linkFromRoute, linkLocation, useLinksStore } from './links-store';

/** Call from the app frame's setup; returns the stop for its unmount. */
export function useRecordLinks(router: Router): () => void {
  const links = useLinksStore();
  const stopEvent = useBridge().on('link.opened', (link) => void router.push(linkLocation(link)));
  const stopWatch = watch(
    () => (router.currentRoute.value.name === 'link' ? router.currentRoute.value.fullPath : null),
    async (path) => {
      if (path === null) return;
      const read = linkFromRoute(router.currentRoute.value);
      if (!read.ok) {
        links.unreadable(read.reason);
        await router.replace(screenLocation('catalog'));
        return;
      }
      const screen = await links.open(read.link);
      // Still this link's address (another link may have come meanwhile): show its screen.
      if (router.currentRoute.value.fullPath === path) await router.replace(screenLocation(screen));
    },
    { immediate: true },
  );
  return () => {
    stopEvent();
    stopWatch();
  };
}
