/**
 * What the accessibility spec reads in the page: axe-core's serious and critical violations
 * (axe's source must be injected first) and the measures of the 1024x700 layout. Code that runs
 * in the page is a string (this side has no DOM types).
 */
import type { Page } from 'playwright-core';

export interface AxeFinding {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  /** The first few elements: their selector and what axe says is wrong. */
  readonly nodes: string[];
}

/** axe-core over the whole document; only what it rates serious or critical. */
export function runAxe(page: Page): Promise<AxeFinding[]> {
  return page.evaluate<AxeFinding[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 240)),
      }));
  })()`);
}

export interface ScreenLayout {
  /** Pixels the page, the screen area or the shown screen is wider than its box (0: none). */
  readonly overflow: number;
  /** What sticks out past the window's right edge (a few, to say what to fix). */
  readonly outside: string[];
  /** Result rows wholly inside the results list's box (the catalog). */
  readonly resultRowsVisible: number;
  /** Delivery id and target path cells listed (the deliveries screen). */
  readonly deliveryIdCells: number;
  /** Lines of text in the tallest delivery id or target path cell. */
  readonly tallestIdCellLines: number;
}

/** The layout measures of the screen shown. */
export function screenLayout(page: Page): Promise<ScreenLayout> {
  return page.evaluate<ScreenLayout>(`(() => {
    const main = document.getElementById('main');
    const shown = [...main.children].filter((el) => el.getClientRects().length > 0);
    const overflow = Math.max(
      0,
      document.documentElement.scrollWidth - window.innerWidth,
      document.body.scrollWidth - document.body.clientWidth,
      main.scrollWidth - main.clientWidth,
      ...shown.map((el) => el.scrollWidth - el.clientWidth),
    );
    const name = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(' ').join('.') : '');
    const outside = overflow > 0
      ? [...main.querySelectorAll('*')]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && el.getClientRects().length > 0)
          .filter((el) => !el.closest('.leaflet-container') || el.classList.contains('leaflet-container'))
          .slice(0, 4)
          .map((el) => name(el) + ' right=' + Math.round(el.getBoundingClientRect().right))
      : [];
    const list = document.querySelector('[role="listbox"][aria-label="Search results"]');
    let resultRowsVisible = 0;
    if (list) {
      const box = list.getBoundingClientRect();
      for (const row of list.querySelectorAll('[role="option"]')) {
        const r = row.getBoundingClientRect();
        if (r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1) resultRowsVisible++;
      }
    }
    const cells = [...document.querySelectorAll('[data-test="delivery-row"] th, [data-test="delivery-row"] [data-test="target-path"]')];
    // Lines of a cell's text: the distinct tops of its text nodes' line boxes.
    const lines = (el) => {
      const tops = new Set();
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(t);
        for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
      }
      return tops.size;
    };
    return {
      overflow,
      outside,
      resultRowsVisible,
      deliveryIdCells: cells.length,
      tallestIdCellLines: Math.max(0, ...cells.map(lines)),
    };
  })()`);
}
