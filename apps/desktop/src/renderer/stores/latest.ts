/**
 * Loads that can overlap (a screen opens while a `records.changed` event reloads it): answers
 * may arrive out of order, and only the latest load's answer is applied. `begin()` at the start
 * of a load returns `isCurrent`, asked after every await.
 */
export function latestOnly(): { begin(): () => boolean } {
  let seq = 0;
  return {
    begin() {
      const mine = ++seq;
      return () => mine === seq;
    },
  };
}
