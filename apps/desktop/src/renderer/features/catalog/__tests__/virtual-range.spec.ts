import { describe, expect, it } from 'vitest';
import { scrollToReveal, visibleRows } from '../virtual-range';

describe('visibleRows', () => {
  it('renders the rows in view plus an overscan margin, within the list', () => {
    expect(visibleRows(0, 320, 32, 100_000, 5)).toEqual({ start: 0, end: 16 });
    // Row 1000 at the top of the viewport.
    expect(visibleRows(32_000, 320, 32, 100_000, 5)).toEqual({ start: 995, end: 1016 });
    // Near the end, never past the last row.
    expect(visibleRows(32 * 99_995, 320, 32, 100_000, 5)).toEqual({ start: 99_990, end: 100_000 });
  });

  it('renders nothing for an empty list', () => {
    expect(visibleRows(0, 320, 32, 0)).toEqual({ start: 0, end: 0 });
  });
});

describe('scrollToReveal', () => {
  it('scrolls just enough to show a row above or below the viewport', () => {
    expect(scrollToReveal(5, 320, 320, 32)).toBe(160); // above: row at the top
    expect(scrollToReveal(30, 0, 320, 32)).toBe(31 * 32 - 320); // below: row at the bottom
    expect(scrollToReveal(12, 320, 320, 32)).toBe(320); // already visible: stay
  });
});
