/**
 * The bridge the stores talk through, set once at start-up (main.ts) or by a test. Kept out of
 * Pinia state: a bridge is a live object (functions, an EventSource), not data to make reactive.
 */
import type { Bridge } from '../../shared/contract';

let current: Bridge | null = null;

export function provideBridge(bridge: Bridge): void {
  current = bridge;
}

export function useBridge(): Bridge {
  if (!current) throw new Error('no bridge: call provideBridge() before using the stores');
  return current;
}
