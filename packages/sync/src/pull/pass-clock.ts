/**
 * When a pass began, on the service's clock: its records' timestamps are the service's, and a
 * laptop's clock may be minutes (or a time zone) off. The local start is moved by the offset the
 * service's `Date` header shows on the pass's first page of this run (no `Date`: the local clock
 * as is). A resumed pass keeps its first start.
 */

/**
 * How far before the pass's start the look for records inserted meanwhile begins: the `Date`
 * header's whole seconds, the service's own clock between hosts, a record committed a little
 * after its timestamp.
 */
export const WINDOW_MARGIN_US = 60 * 1_000_000;

export class PassClock {
  /** Service clock minus local clock (µs), from the first page with a `Date`. */
  private offsetUs: number | undefined;

  constructor(
    /** When the pass started, local clock (µs). */
    private readonly startedAtUs: number | null,
    private readonly nowUs: () => number,
  ) {}

  /**
   * A page arrived with this `Date` (ms; undefined when the service sent none). The header
   * counts whole seconds: the service's clock was somewhere in that second, taken at its end
   * (a record stamped a moment before the pass began is never taken for a future one).
   */
  saw(serverDateMs: number | undefined): void {
    if (this.offsetUs === undefined && serverDateMs !== undefined)
      this.offsetUs = (serverDateMs + 1000) * 1000 - this.nowUs();
  }

  /** The pass's start on the service's clock (µs). */
  startUs(): number {
    return (this.startedAtUs ?? this.nowUs()) + (this.offsetUs ?? 0);
  }

  /** From when to ask for records inserted while the pass read (µs, service clock). */
  windowStartUs(): number {
    return this.startUs() - WINDOW_MARGIN_US;
  }
}
