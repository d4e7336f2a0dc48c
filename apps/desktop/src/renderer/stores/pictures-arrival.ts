/**
 * Pictures arrive while the screen shows: the first sync fetches the thumbnails after the
 * records, so rows and map drawn before them found none ("no preview offline"). This counter
 * goes up as the sync's imagery pass stores pictures (`sync.imagery`, at most once a second,
 * and once more when it ends: `sync.finished`); a placeholder shown for want of a picture asks
 * again when it changes (QuicklookThumb, the map's quicklook layer).
 */
import { ref } from 'vue';
import type { Bridge } from '../../shared/contract';

/** Bumped when new pictures may be in the mirror. */
export const picturesVersion = ref(0);

/** Bumps at most once per `everyMs` while pictures keep arriving (the last one always lands). */
export function listenForPictures(bridge: Bridge, everyMs = 1000): () => void {
  let lastBump = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const bump = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastBump = Date.now();
    picturesVersion.value++;
  };
  const arrived = () => {
    const wait = lastBump + everyMs - Date.now();
    if (wait <= 0) bump();
    else timer ??= setTimeout(bump, wait);
  };
  const offs = [bridge.on('sync.imagery', arrived), bridge.on('sync.finished', bump)];
  return () => {
    if (timer) clearTimeout(timer);
    offs.forEach((off) => off());
  };
}
