/**
 * Headless Chromium driven over its DevTools pipe with the least instrumentation: what stands
 * in for Electron's window in `cold-start.ts`. Electron's window has no DevTools client; the
 * one a benchmark needs should cost the page as little as it can. playwright-core follows
 * every request and frame of the pages it opens (its Network and Page domains, its injected
 * scripts, its polling): measured on 2026-11-30, the app's cold start took 50 to 150 ms longer
 * under it than under this client, a trivial page 5 to 20 ms (`docs/cold-start.md`). Here a
 * page gets the Runtime and Page domains (a mark is reported through a binding, once) and
 * nothing else unless asked (a CPU profile, a trace).
 *
 * Chromium is /usr/bin/chromium (or CHROMIUM_PATH), started with the switches the app's window
 * runs with (main/chromium-switches.ts); nothing is ever downloaded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { BENCH_CHROMIUM, CHROMIUM_ARGS } from '../src/e2e/chromium';

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
};

/** One DevTools protocol connection over Chromium's pipe (`--remote-debugging-pipe`). */
class Pipe {
  private nextId = 0;
  private buffered = '';
  private readonly waiting = new Map<number, (m: Message) => void>();
  private readonly listeners = new Set<(m: Message) => void>();
  /** Set once Chromium closed its end: calls pending or sent later fail with it. */
  private closed: Error | null = null;

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    // Writing to a Chromium that exited fails (EPIPE); its closed output reports it to callers.
    input.on('error', () => undefined);
    output.once('close', () => {
      this.closed = new Error('Chromium closed its DevTools pipe (it exited or crashed)');
      for (const settle of this.waiting.values())
        settle({ error: { message: this.closed.message } });
      this.waiting.clear();
    });
    output.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      for (let end = this.buffered.indexOf('\0'); end >= 0; end = this.buffered.indexOf('\0')) {
        const message = JSON.parse(this.buffered.slice(0, end)) as Message;
        this.buffered = this.buffered.slice(end + 1);
        if (message.id === undefined) this.listeners.forEach((l) => l(message));
        else {
          this.waiting.get(message.id)?.(message);
          this.waiting.delete(message.id);
        }
      }
    });
  }

  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`${method}: ${this.closed.message}`));
    const id = ++this.nextId;
    this.input.write(
      JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0',
    );
    return new Promise<T>((resolve, reject) =>
      this.waiting.set(id, (m) =>
        m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result as T),
      ),
    );
  }

  /** Calls `listener` with every event until the returned function is called. */
  listen(listener: (m: Message) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The first event `match` accepts from now on (`stop` gives up listening). */
  next(match: (m: Message) => boolean): { event: Promise<Message>; stop: () => void } {
    let stop!: () => void;
    const event = new Promise<Message>((resolve) => {
      stop = this.listen((m) => {
        if (!match(m)) return;
        stop();
        resolve(m);
      });
    });
    return { event, stop };
  }
}

/** `p`'s result, or an error saying what never happened within `ms`. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} did not happen within ${ms / 1000} s`)),
        ms,
      );
    }),
  ]);
}

/**
 * A page: in the browser's own profile, whose caches (HTTP, V8's compiled code) last from one
 * page to the next as an Electron window's session does across launches; or, with `fresh`, in
 * a browser context of its own (no cache, no storage shared with other pages).
 */
export interface DevtoolsPage {
  /** Navigates; resolves once the navigation is committed or failed. */
  navigate(url: string): Promise<void>;
  /** Epoch ms of the page's performance mark (the one `newPage` was given), waiting for it. */
  markTime(timeoutMs: number): Promise<number>;
  /** Evaluates `expression` in the page and returns its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** A V8 CPU profile of the page from now to `stopProfile` (sampling every 250 µs). */
  startProfile(): Promise<void>;
  stopProfile(): Promise<unknown>;
  close(): Promise<void>;
}

export interface DevtoolsBrowser {
  /** A new page of `width` x `height` CSS pixels reporting its performance mark `mark`. */
  newPage(options: {
    width: number;
    height: number;
    mark: string;
    fresh?: boolean;
  }): Promise<DevtoolsPage>;
  /** A Chromium trace of every process and thread, from now to `stopTracing` (written to `file`). */
  startTracing(categories: readonly string[]): Promise<void>;
  stopTracing(file: string): Promise<void>;
  close(): Promise<void>;
}

/** The binding a page reports its mark through, and the script that watches for the mark. */
const BINDING = '__eoBenchMark';
const watchMark = (name: string) =>
  `new PerformanceObserver((list) => { for (const e of list.getEntries()) ` +
  `if (e.name === ${JSON.stringify(name)}) ${BINDING}(String(performance.timeOrigin + e.startTime)); })` +
  `.observe({ type: 'mark', buffered: true });`;

export async function launchDevtoolsBrowser(): Promise<DevtoolsBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-devtools-window-'));
  const chrome: ChildProcess = spawn(
    BENCH_CHROMIUM,
    [
      // Headless, with the switches the app's window runs with (e2e/chromium.ts).
      ...CHROMIUM_ARGS,
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--mute-audio',
      '--hide-scrollbars',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => chrome.once('exit', () => resolve()));
  const pipe = new Pipe(chrome.stdio[3] as Writable, chrome.stdio[4] as Readable);
  try {
    await within(
      30_000,
      "Chromium's first answer on its DevTools pipe",
      pipe.send('Browser.getVersion'),
    );
  } catch (e) {
    chrome.kill('SIGKILL');
    fs.rmSync(profile, { recursive: true, force: true });
    throw e;
  }

  return {
    async newPage({ width, height, mark, fresh = false }) {
      const { browserContextId } = fresh
        ? await pipe.send<{ browserContextId: string }>('Target.createBrowserContext', {
            disposeOnDetach: true,
          })
        : { browserContextId: undefined };
      const { targetId } = await pipe.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        browserContextId,
      });
      const { sessionId } = await pipe.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      });
      const on = (method: string, params: Record<string, unknown> = {}) =>
        pipe.send(method, params, sessionId);
      await on('Emulation.setDeviceMetricsOverride', {
        width,
        height,
        deviceScaleFactor: 1,
        mobile: false,
      });
      // A binding's calls arrive as Runtime events; a script for new documents needs Page.
      await on('Runtime.enable');
      await on('Page.enable');
      await on('Runtime.addBinding', { name: BINDING });
      await on('Page.addScriptToEvaluateOnNewDocument', { source: watchMark(mark) });
      // Listened from the start: the mark may come before anyone asks for it.
      const marked = pipe.next(
        (m) =>
          m.sessionId === sessionId &&
          m.method === 'Runtime.bindingCalled' &&
          m.params?.['name'] === BINDING,
      );
      return {
        async navigate(url) {
          const { errorText } = await on('Page.navigate', { url });
          if (errorText) throw new Error(`navigating to ${url}: ${String(errorText)}`);
        },
        async markTime(timeoutMs) {
          const m = await within(timeoutMs, `the page's mark "${mark}"`, marked.event);
          return Number(m.params?.['payload']);
        },
        async evaluate<T>(expression: string) {
          const { result, exceptionDetails } = await on('Runtime.evaluate', {
            expression,
            returnByValue: true,
            awaitPromise: true,
          });
          if (exceptionDetails) throw new Error(`evaluate: ${JSON.stringify(exceptionDetails)}`);
          return (result as { value: T }).value;
        },
        async startProfile() {
          await on('Profiler.enable');
          await on('Profiler.setSamplingInterval', { interval: 250 });
          await on('Profiler.start');
        },
        async stopProfile() {
          return (await on('Profiler.stop'))['profile'];
        },
        async close() {
          marked.stop();
          if (browserContextId)
            await pipe.send('Target.disposeBrowserContext', { browserContextId });
          else await pipe.send('Target.closeTarget', { targetId });
        },
      };
    },
    async startTracing(categories) {
      await pipe.send('Tracing.start', {
        transferMode: 'ReturnAsStream',
        traceConfig: { includedCategories: [...categories] },
      });
    },
    async stopTracing(file) {
      const complete = pipe.next((m) => m.method === 'Tracing.tracingComplete');
      await pipe.send('Tracing.end');
      const handle = (await within(60_000, 'the end of the trace', complete.event)).params?.[
        'stream'
      ] as string;
      const out = fs.createWriteStream(file);
      for (;;) {
        const { data, eof, base64Encoded } = await pipe.send<{
          data: string;
          eof: boolean;
          base64Encoded?: boolean;
        }>('IO.read', { handle });
        out.write(base64Encoded ? Buffer.from(data, 'base64') : data);
        if (eof) break;
      }
      await pipe.send('IO.close', { handle });
      await new Promise<void>((resolve) => out.end(() => resolve()));
    },
    async close() {
      if (chrome.exitCode === null) {
        await pipe.send('Browser.close').catch(() => undefined);
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000).unref())]);
        if (chrome.exitCode === null) chrome.kill('SIGKILL');
      }
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
