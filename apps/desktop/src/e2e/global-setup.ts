/** The e2e project's global setup: the renderer must be built before any browser opens. */
import { ensureRendererBuilt } from './renderer-build';

export default function setup(): void {
  ensureRendererBuilt((line) => console.log(line));
}
