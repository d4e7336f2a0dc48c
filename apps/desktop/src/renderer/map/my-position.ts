/**
 * The device's position as "Near me" last found it (geolocation, or typed where the device
 * cannot say), for what works "around my position" elsewhere (taking a site offline). Null until
 * the user asked: the app never locates on its own.
 */
import { shallowRef } from 'vue';
import type { LatLon } from './coordinates';

export interface MyPosition extends LatLon {
  /** Metres, when the device said. */
  readonly accuracyM: number | null;
  /** How it was found: "Your position" (the device) or "Position typed". */
  readonly source: string;
}

export const myPosition = shallowRef<MyPosition | null>(null);
