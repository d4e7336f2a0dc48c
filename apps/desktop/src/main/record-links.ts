/**
 * Record links (`eo-field-desk://scene/<id>`…, @eo/domain's record-link.ts): the app is the
 * scheme's handler. macOS hands a link as `open-url`; Windows and Linux start the app with the
 * link as an argument, which the single-instance lock turns into `second-instance` in the
 * running app. Each link is read here with the domain's parser (other schemes, overlong links
 * and bad ids refused) and only the parsed link goes to the page, as the `link.opened` event,
 * once the page is loaded and listening.
 */
import path from 'node:path';
import { parseRecordLink, RECORD_LINK_SCHEME, type RecordLink } from '@eo/domain';

const PREFIX = `${RECORD_LINK_SCHEME}://`;

export interface LinkAppLike {
  setAsDefaultProtocolClient(scheme: string, path?: string, args?: string[]): boolean;
  on(
    event: 'open-url',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): unknown;
}

/** The first argument that is one of our links, or null. */
export function linkArgument(argv: readonly unknown[]): string | null {
  const found = argv.find(
    (a): a is string => typeof a === 'string' && a.slice(0, PREFIX.length).toLowerCase() === PREFIX,
  );
  return found ?? null;
}

export interface LinkRelayDeps {
  /** To the page (main's `relayEvent` of `link.opened`). */
  send(link: RecordLink): void;
  /** A link that cannot be opened, and why (said to the user). */
  refuse(reason: string): void;
}

/** Holds the last link until the page can take it, then passes each one on. */
export function createLinkRelay(deps: LinkRelayDeps) {
  let ready = false;
  let pending: RecordLink | null = null;
  return {
    open(raw: unknown): void {
      const read = parseRecordLink(raw);
      if (!read.ok) return deps.refuse(read.reason);
      if (ready) deps.send(read.link);
      else pending = read.link;
    },
    /** The page is loaded (its listener is on): the link that started the app goes now. */
    ready(): void {
      ready = true;
      if (pending) {
        const link = pending;
        pending = null;
        deps.send(link);
      }
    },
    /** The page is reloading: links wait for it again. */
    unready(): void {
      ready = false;
    },
  };
}
export type LinkRelay = ReturnType<typeof createLinkRelay>;

/**
 * The app registers as the scheme's handler, takes macOS's `open-url`, and the link it was
 * started with on Windows and Linux. Started as `electron path/to/main` (development), the
 * system must be told the script too, or the link would open a bare Electron.
 */
export function registerLinkScheme(
  app: LinkAppLike,
  relay: Pick<LinkRelay, 'open'>,
  proc: { defaultApp?: boolean | undefined; execPath: string; argv: readonly string[] },
): void {
  const script = proc.argv[1];
  if (proc.defaultApp && script)
    app.setAsDefaultProtocolClient(RECORD_LINK_SCHEME, proc.execPath, [path.resolve(script)]);
  else app.setAsDefaultProtocolClient(RECORD_LINK_SCHEME);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    relay.open(url);
  });
  const first = linkArgument(proc.argv);
  if (first) relay.open(first);
}
