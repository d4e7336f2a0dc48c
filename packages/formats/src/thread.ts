/**
 * `@eo/formats/thread`: worker threads with a heap limit and a time limit, the last one kept
 * warm (`createLimitedThreads`, and `serveThread` for the entry module), for every package that
 * reads input it does not trust off its event loop. Node only; carries no reader or writer.
 */
export {
  createLimitedThreads,
  ThreadJobError,
  ThreadLimitError,
  type LimitedThreads,
  type LimitedThreadsOptions,
  type LimitedThreadsStats,
  type ThreadLimitKind,
  type ThreadLimits,
} from './worker/limited-threads';
export { serveThread } from './worker/serve-thread';
export { startThread } from './worker/start-thread';
