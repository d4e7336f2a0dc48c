/**
 * `serveThread(handle)`: the thread side of `createLimitedThreads` (limited-threads.ts), called
 * once by a thread entry module. Answers each `{ id, input }` with `handle(input)` (or the
 * message it threw; the starter gives it one job at a time) for as long as the thread is kept warm; says `ready`
 * once loaded, which is when a job's time starts to count.
 */
import { parentPort } from 'node:worker_threads';
import type { ThreadReply, ThreadRequest } from './limited-threads';

export function serveThread<In, Out>(handle: (input: In) => Out | Promise<Out>): void {
  const port = parentPort;
  if (!port) throw new Error('serveThread runs in a worker thread');
  port.on('message', (m: ThreadRequest<In>) => {
    void (async () => {
      let reply: ThreadReply<Out>;
      try {
        reply = { id: m.id, answer: await handle(m.input) };
      } catch (e) {
        reply = { id: m.id, failed: e instanceof Error ? e.message : String(e) };
      }
      port.postMessage(reply);
    })();
  });
  port.postMessage({ ready: true } satisfies ThreadReply<Out>);
}
