/**
 * Where a bench page's threads spend their time: reads a Chromium trace written by
 * runBenchPage's `trace` option and sums, inside the page's marked phases (`performance.mark`
 * of `eo:<phase>:start` and `eo:<phase>:end`, e.g. raster-frames' `raster` and `baseline`
 * drags), each thread's CPU time (thread time, not wall time: on a busy machine the wall time
 * is mostly waiting for a core) and the renderer main thread's self time per trace event. Used
 * by raster-frames.ts `--trace FILE`.
 */
import fs from 'node:fs';

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { name?: string };
}

/** One phase's figures: CPU ms per thread, and the main thread's self CPU ms per event. */
export interface PhaseCost {
  readonly wallMs: number;
  readonly threads: Map<string, number>;
  readonly mainSelf: Map<string, number>;
}

const MAIN = 'CrRendererMain';

/** The phases' time windows [start, end] (trace µs), by phase name. */
function phaseWindows(events: readonly TraceEvent[]): Map<string, [number, number][]> {
  const open = new Map<string, number>();
  const out = new Map<string, [number, number][]>();
  const marks = events
    .filter((e) => e.name.startsWith('eo:') && e.ph !== 'M')
    .sort((a, b) => a.ts - b.ts);
  for (const m of marks) {
    const [, phase, edge] = m.name.split(':') as [string, string, string];
    if (edge === 'start') open.set(phase, m.ts);
    else if (edge === 'end' && open.has(phase)) {
      out.set(phase, [...(out.get(phase) ?? []), [open.get(phase)!, m.ts] as [number, number]]);
      open.delete(phase);
    }
  }
  return out;
}

function add(map: Map<string, number>, key: string, v: number): void {
  map.set(key, (map.get(key) ?? 0) + v);
}

/** Sums the trace's complete events ('X', with thread time) per phase. */
export function summariseTrace(file: string): Map<string, PhaseCost> {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name')
      names.set(`${e.pid}/${e.tid}`, e.args?.name ?? '');
  const windows = phaseWindows(events);
  const phaseOf = (ts: number): string | undefined => {
    for (const [phase, ws] of windows) if (ws.some(([a, b]) => a <= ts && ts <= b)) return phase;
    return undefined;
  };
  const costs = new Map<string, PhaseCost>();
  for (const [phase, ws] of windows)
    costs.set(phase, {
      wallMs: ws.reduce((s, [a, b]) => s + (b - a) / 1000, 0),
      threads: new Map(),
      mainSelf: new Map(),
    });
  // Per thread, events by start (outer first): a stack gives each event its children's time.
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events)
    if (e.ph === 'X' && e.dur !== undefined && e.tdur !== undefined) {
      const key = `${e.pid}/${e.tid}`;
      const list = byThread.get(key);
      if (list) list.push(e);
      else byThread.set(key, [e]);
    }
  for (const [key, list] of byThread) {
    const thread = names.get(key) ?? key;
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const stack: { e: TraceEvent; children: number }[] = [];
    const close = (until: number) => {
      while (stack.length && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= until) {
        const { e, children } = stack.pop()!;
        const phase = phaseOf(e.ts);
        const cost = phase === undefined ? undefined : costs.get(phase);
        if (cost && thread === MAIN) add(cost.mainSelf, e.name, (e.tdur! - children) / 1000);
      }
    };
    for (const e of list) {
      close(e.ts);
      const parent = stack.at(-1);
      if (parent) parent.children += e.tdur!;
      else {
        const phase = phaseOf(e.ts);
        if (phase !== undefined) add(costs.get(phase)!.threads, thread, e.tdur! / 1000);
      }
      stack.push({ e, children: 0 });
    }
    close(Infinity);
  }
  return costs;
}

/** Lines to print: each phase's busiest threads and the main thread's top `top` events. */
export function describeCosts(costs: Map<string, PhaseCost>, top = 12): string[] {
  const lines: string[] = [];
  const ms = (v: number) => `${v.toFixed(0).padStart(6)} ms`;
  for (const [phase, c] of costs) {
    lines.push(`  trace, ${phase} (${(c.wallMs / 1000).toFixed(1)} s of drags), CPU per thread:`);
    for (const [t, v] of [...c.threads].sort((a, b) => b[1] - a[1]).slice(0, 6))
      lines.push(`    ${ms(v)}  ${t}`);
    lines.push(`  ${phase}: main thread's self CPU, top ${top}:`);
    for (const [n, v] of [...c.mainSelf].sort((a, b) => b[1] - a[1]).slice(0, top))
      lines.push(`    ${ms(v)}  ${n}`);
  }
  return lines;
}
