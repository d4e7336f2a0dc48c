/**
 * Inside a render thread: answers `{ id, kind, input }` messages (a job may return a promise) with `{ id, value }` or
 * `{ id, error }`, one at a time (the pool sends a thread one job at a time). Top-level
 * `Uint8Array`s of the value, alone or as members, are moved to the main thread, not copied.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { JobTable } from './jobs';

export interface JobMessage {
  readonly id: number;
  readonly kind: string;
  readonly input: unknown;
}
export type JobAnswer =
  /** First message of a thread: loaded, serving (a job's time is counted from here). */
  | { readonly ready: true }
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly error: { readonly name: string; readonly message: string } };

/** The buffers of `value` that can move without a copy (each wholly owned by its view). */
function transferables(value: unknown): ArrayBuffer[] {
  const views =
    value instanceof Uint8Array
      ? [value]
      : value && typeof value === 'object'
        ? Object.values(value).filter((v): v is Uint8Array => v instanceof Uint8Array)
        : [];
  const out = new Set<ArrayBuffer>();
  for (const v of views)
    if (
      v.buffer instanceof ArrayBuffer &&
      v.byteOffset === 0 &&
      v.byteLength === v.buffer.byteLength
    )
      out.add(v.buffer);
  return [...out];
}

/**
 * Lowers this thread's CPU priority (nice 10) where the system names threads (Linux's
 * `/proc/thread-self`): on a busy machine the event loop, which answers every request, is
 * scheduled before renders. Elsewhere the thread keeps the process's priority.
 */
function yieldToEventLoop(): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, 10);
  } catch {
    // No /proc, or not allowed: same priority as the rest of the process.
  }
}

/** Serves `jobs` on this thread's port (call once, from a thread's entry module). */
export function serveJobs(jobs: JobTable): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs in a worker thread');
  yieldToEventLoop();
  const answerOne = async (m: JobMessage): Promise<void> => {
    let answer: JobAnswer;
    let moved: ArrayBuffer[] = [];
    try {
      const job = Object.hasOwn(jobs, m.kind) ? jobs[m.kind] : undefined;
      if (!job) throw new Error(`no render job ${JSON.stringify(m.kind)}`);
      const value: unknown = await job(m.input);
      moved = transferables(value);
      answer = { id: m.id, value };
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      answer = { id: m.id, error: { name: err.name, message: err.message } };
    }
    port.postMessage(answer, moved);
  };
  // Not awaited: each message is answered on its own; a failing job answers with its error.
  port.on('message', (m: JobMessage) => void answerOne(m));
  port.postMessage({ ready: true } satisfies JobAnswer);
}
