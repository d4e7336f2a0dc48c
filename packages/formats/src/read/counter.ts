/** Counts features and positions as a reader goes, and stops it at the limits. */
import { positionCount, type Geometry } from '@eo/domain';
import type { ImportLimits } from '../limits';

export class LimitExceeded extends Error {}

export function makeCounter(limits: ImportLimits): (g: Geometry | null) => void {
  let features = 0;
  let positions = 0;
  return (g) => {
    features += 1;
    if (features > limits.maxFeatures)
      throw new LimitExceeded(`more than ${limits.maxFeatures} features`);
    if (g) positions += positionCount(g);
    if (positions > limits.maxTotalVertices)
      throw new LimitExceeded(`more than ${limits.maxTotalVertices} positions in all`);
  };
}
