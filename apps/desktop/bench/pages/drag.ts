/**
 * A mouse drag across the map, one step per animation frame, as the pan benchmarks make it:
 * the frame intervals (ms) during the drag and the frames after the mouseup.
 */
export const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

export async function drag(
  el: HTMLElement,
  move: { frames: number; dx: number; dy: number; framesAfter: number },
  timed: {
    /** Each mousemove's own handlers (ms). */
    onMove?: (ms: number) => void;
    /** The mouseup's handlers: the redraw for the new view (ms). */
    onEnd?: (ms: number) => void;
  } = {},
): Promise<number[]> {
  const box = el.getBoundingClientRect();
  let x = box.left + box.width / 2;
  let y = box.top + box.height / 2;
  const mouse = (type: string) =>
    el.dispatchEvent(
      new MouseEvent(type, { clientX: x, clientY: y, button: 0, buttons: 1, bubbles: true }),
    );
  const times: number[] = [];
  let last = await nextFrame();
  const frame = async () => {
    const t = await nextFrame();
    times.push(t - last);
    last = t;
  };
  mouse('mousedown');
  for (let i = 0; i < move.frames; i++) {
    x += move.dx;
    y += move.dy;
    const t0 = performance.now();
    mouse('mousemove');
    timed.onMove?.(performance.now() - t0);
    await frame();
  }
  const t0 = performance.now();
  mouse('mouseup');
  timed.onEnd?.(performance.now() - t0);
  for (let i = 0; i < move.framesAfter; i++) await frame();
  return times;
}
