/** A scene-tile thread: answers `{ id, job }` with `{ id, result }` or `{ id, error }`. */
import { parentPort } from 'node:worker_threads';
import { renderSceneTiles, type SceneTilesJob } from './job';

const port = parentPort!;
port.on('message', (m: { id: number; job: SceneTilesJob }) => {
  try {
    const result = renderSceneTiles(m.job);
    const moved = result.tiles
      .filter((t): t is Uint8Array => t !== null)
      .map((t) => t.buffer as ArrayBuffer);
    port.postMessage({ id: m.id, result }, [...new Set(moved)]);
  } catch (e) {
    port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
