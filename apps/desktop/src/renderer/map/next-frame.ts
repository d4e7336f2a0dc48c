/**
 * Work for the next animation frame, asked for as often as wanted before it: it runs once,
 * before that frame is painted. The map's layers redraw this way when their content changes,
 * so content and view changing in one task (a new search's footprints, then the map fitted to
 * them) cost one draw, not one per change.
 */
export class NextFrame {
  private frame: number | null = null;

  constructor(private readonly work: () => void) {}

  /** Asked for and not yet run or cancelled. */
  get pending(): boolean {
    return this.frame !== null;
  }

  request(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.work();
    });
  }

  /** Not needed any more (done sooner, or the layer left the map). */
  cancel(): void {
    if (this.frame === null) return;
    cancelAnimationFrame(this.frame);
    this.frame = null;
  }
}
