/**
 * The IPC channels between preload and main (the renderer never sees them), and how main hands
 * the contract's method and event names to the sandboxed preload. The names themselves are the
 * keys of `contract` and `events` (./contract/index.ts), their one source: main, which loads the
 * contract anyway, passes them on the preload's command line (`additionalArguments`, Electron's
 * way of handing small data to a preload), so the preload loads no zod and restates no list.
 */
export const IPC_CALL = 'eo:call';
export const IPC_EVENT = 'eo:event';

const METHODS_FLAG = '--eo-methods=';
const EVENTS_FLAG = '--eo-events=';
/** A method or event name: `area.verb`, letters only (safe on a command line, in a URL path). */
const NAME = /^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/;
/** Far above the contract's ~70 names; bounds what a broken command line can cost. */
const MAX_NAMES = 1000;

export interface ContractNames {
  readonly methods: ReadonlySet<string>;
  readonly events: ReadonlySet<string>;
}

/** Main's side: the preload's command-line arguments for these names. */
export function contractNameArguments(
  methods: readonly string[],
  events: readonly string[],
): string[] {
  for (const name of [...methods, ...events]) {
    if (!NAME.test(name)) throw new Error(`not a contract name: ${JSON.stringify(name)}`);
  }
  return [`${METHODS_FLAG}${methods.join(',')}`, `${EVENTS_FLAG}${events.join(',')}`];
}

/**
 * The preload's side: the names main passed, or a clear error when they are missing or not
 * names (the preload then exposes nothing: fail closed, never an open door).
 */
export function contractNamesFromArgv(argv: readonly string[]): ContractNames {
  const listed = (flag: string): Set<string> => {
    const arg = argv.find((a) => a.startsWith(flag));
    if (arg === undefined) throw new Error(`the preload was started without ${flag}…`);
    const names = arg.slice(flag.length).split(',', MAX_NAMES + 1);
    if (names.length > MAX_NAMES || !names.every((n) => NAME.test(n))) {
      throw new Error(`${flag}… does not list contract names`);
    }
    return new Set(names);
  };
  return { methods: listed(METHODS_FLAG), events: listed(EVENTS_FLAG) };
}
