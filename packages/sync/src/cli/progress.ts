/**
 * Progress on stderr. `auto` (the default) draws a plain bar, redrawn in place, only when stderr
 * is a terminal, and prints nothing otherwise (stderr of a script stays for errors); `lines`
 * prints one line per step for logs; `off` prints nothing.
 */
import type { FlushProgress } from '../outbox/index';
import type { SyncProgress } from '../pull/engine';
import type { ImageryProgress } from '../pull/imagery';
import type { OfflineProgress } from '../offline/take-offline';
import { UsageError } from './args';
import type { OutputStream } from './io';

export type ProgressMode = 'bar' | 'lines' | 'off';

export function progressMode(flag: string | undefined, stderr: OutputStream): ProgressMode {
  switch (flag ?? 'auto') {
    case 'auto':
      return stderr.isTTY ? 'bar' : 'off';
    case 'lines':
      return 'lines';
    case 'off':
      return 'off';
    default:
      throw new UsageError(`--progress must be auto, lines or off, got ${JSON.stringify(flag)}`);
  }
}

export interface ProgressReporter<P> {
  update(p: P): void;
  /** Ends a bar left open (before anything else is written to stderr). */
  end(): void;
}

const BAR_WIDTH = 24;

function bar(done: number, total: number | null): string {
  if (total === null || total <= 0) return '';
  const filled = Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH));
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] `;
}

/** One line redrawn with `\r` while it changes; a newline when its subject changes or ends. */
function lineReporter<P>(
  stderr: OutputStream,
  mode: ProgressMode,
  subject: (p: P) => string,
  text: (p: P) => string,
  finished: (p: P) => boolean,
): ProgressReporter<P> {
  let open: string | null = null;
  let width = 0;
  const close = () => {
    if (open !== null) stderr.write('\n');
    open = null;
    width = 0;
  };
  return {
    update(p) {
      if (mode === 'off') return;
      const line = text(p);
      if (mode === 'lines') {
        stderr.write(`${line}\n`);
        return;
      }
      if (open !== null && open !== subject(p)) close();
      open = subject(p);
      // Pad over what a longer previous line left behind.
      stderr.write(`\r${line.padEnd(width)}`);
      width = Math.max(width, line.length);
      if (finished(p)) close();
    },
    end: close,
  };
}

const RESOURCE_LABEL_WIDTH = 11;

export function syncProgress(stderr: OutputStream, mode: ProgressMode) {
  return lineReporter<SyncProgress>(
    stderr,
    mode,
    (p) => p.resource,
    (p) => {
      const count = p.total === null ? `${p.seen}` : `${p.seen}/${p.total}`;
      const part =
        p.parts > 1 && !p.done ? ` (list ${Math.min(p.part + 1, p.parts)}/${p.parts})` : '';
      const head = `${p.resource.padEnd(RESOURCE_LABEL_WIDTH)} `;
      if (mode === 'lines') return `${p.resource} ${count}${part}${p.done ? ' done' : ''}`;
      return `${head}${bar(p.done ? 1 : p.seen, p.done ? 1 : p.total)}${count}${part}${p.done ? ' done' : ''}`;
    },
    (p) => p.done,
  );
}

export function flushProgress(stderr: OutputStream, mode: ProgressMode) {
  return lineReporter<FlushProgress>(
    stderr,
    mode,
    () => 'outbox',
    (p) =>
      `outbox ${bar(p.sent + p.failed + p.blocked, p.sent + p.failed + p.blocked + p.remaining)}` +
      `${p.sent} sent, ${p.failed} failed, ${p.blocked} blocked, ${p.remaining} remaining`,
    () => false,
  );
}

export function imageryProgress(stderr: OutputStream, mode: ProgressMode) {
  return lineReporter<ImageryProgress>(
    stderr,
    mode,
    () => 'imagery',
    (p) => {
      const done = p.seen >= p.total ? ' done' : '';
      const mb = ` ${(p.bytes / 1e6).toFixed(1)} MB`;
      if (mode === 'lines') return `imagery ${p.seen}/${p.total}${mb}${done}`;
      return `${'imagery'.padEnd(RESOURCE_LABEL_WIDTH)} ${bar(p.seen, p.total)}${p.seen}/${p.total}${mb}${done}`;
    },
    (p) => p.seen >= p.total,
  );
}

const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
const MB = 1_000_000;

/** `eo download`: each step of taking a site offline; tile and byte counts redrawn in place. */
export function offlineProgress(stderr: OutputStream, mode: ProgressMode) {
  return lineReporter<OfflineProgress>(
    stderr,
    mode,
    (p) => p.phase,
    (p) => {
      switch (p.phase) {
        case 'requesting':
          return `download: asking the service (${p.rasterId})`;
        case 'waiting':
          return `download: ${p.downloadId} ${p.status}`;
        case 'opening':
          return `download: reading the file's header from ${p.host}`;
        case 'planned':
          return `download: level ${p.level} (${p.pixelSize} m), ${p.width} x ${p.height} px, ${p.tiles} tiles, ${mb(p.bytes)} to fetch`;
        case 'tiles':
          return `download: tiles ${mode === 'bar' ? bar(p.done, p.total) : ''}${p.done}/${p.total}, ${mb(p.bytes)}`;
        case 'whole-file':
          return `download: the file is ${p.reason}: taking it whole, ${mb(p.bytes)}`;
        case 'file':
          return `download: file ${mode === 'bar' ? bar(p.have, p.bytes) : ''}${mb(p.have)} of ${mb(p.bytes)}`;
        case 'writing':
          return `download: writing the site's GeoTIFF`;
        case 'stored':
          return `download: stored ${p.raster.id} (${mb(p.raster.bytes ?? 0)})`;
      }
    },
    (p) =>
      p.phase !== 'tiles' && p.phase !== 'file'
        ? true
        : p.phase === 'tiles'
          ? p.done >= p.total
          : p.have >= p.bytes,
  );
}
