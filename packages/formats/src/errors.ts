/**
 * The one error an import throws: which file, which feature (when one is at fault) and what is
 * wrong. Anything a parser throws on a bad file is caught and wrapped in it, so a caller (the
 * CLI, the desktop backend) handles exactly one kind and nothing is half imported.
 */
export class FormatError extends Error {
  readonly file: string;
  /** 1-based position of the feature at fault, when one is. */
  readonly feature: number | undefined;
  readonly reason: string;
  constructor(file: string, reason: string, feature?: number) {
    super(`${file}: ${feature === undefined ? '' : `feature ${feature}: `}${reason}`);
    this.name = 'FormatError';
    this.file = file;
    this.feature = feature;
    this.reason = reason;
  }
}

/** A parser's own failure as a short reason (its message, never its stack). */
export function reasonOf(e: unknown): string {
  if (e instanceof Error && e.message) return e.message.split('\n')[0]!.slice(0, 300);
  return String(e).slice(0, 300);
}
