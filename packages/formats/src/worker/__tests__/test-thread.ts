/**
 * A thread entry for the limited threads' tests (not a spec): jobs that answer who ran them,
 * throw, take memory without end, or never return.
 */
import { threadId } from 'node:worker_threads';
import { serveThread } from '../serve-thread';

export type TestJob = 'who' | 'throw' | 'hog' | 'spin';

serveThread((job: TestJob): number => {
  if (job === 'throw') throw new Error('not a job this thread knows');
  if (job === 'hog') {
    // What a hostile input does to a naive reader: holds more and more (1 MB strings) and never ends.
    const held: string[] = [];
    for (let i = 0; ; i++) held.push(`${i}`.padEnd(1024 * 1024, 'x'));
  }
  if (job === 'spin') for (;;);
  return threadId;
});
