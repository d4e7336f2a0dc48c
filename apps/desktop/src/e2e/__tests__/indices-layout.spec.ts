/**
 * The Indices table at 1024x700, light and dark (issue 26: it was cut off at the right), in
 * headless Chromium against the real reference service with its preset indices: the table fits
 * the list's box, every column inside it, and no cell spills out of its column (long
 * expressions wrap). Measured by the boxes the page lays out. Screenshots in
 * test-output/e2e/indices-layout/.
 */
import { describe, expect, it } from 'vitest';
import { useJourney } from '../harness';

const j = useJourney('indices-layout', {
  page: { viewport: { width: 1024, height: 700 } },
  open: 'synced',
});

interface TableBoxes {
  readonly rows: number;
  /** How far the table reaches past the right edge of the box that holds it (px, 0: none). */
  readonly pastBox: number;
  /** How far it reaches past the window's right edge. */
  readonly pastWindow: number;
  /** Cells whose content is wider than the cell (cut or spilling), by column head. */
  readonly spilling: string[];
  /** Column heads lying wholly or partly outside the holding box. */
  readonly headsOutside: string[];
}

function tableBoxes(): Promise<TableBoxes> {
  return j.page.evaluate<TableBoxes>(`(() => {
    const table = document.querySelector('[data-test="index-table"]');
    const box = table.parentElement.getBoundingClientRect();
    const t = table.getBoundingClientRect();
    const heads = [...table.querySelectorAll('thead th')];
    const spilling = [];
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        if (cell.scrollWidth > cell.clientWidth + 1) spilling.push(heads[i].textContent.trim());
      });
    }
    return {
      rows: table.querySelectorAll('tbody tr').length,
      pastBox: Math.max(0, Math.round(t.right - box.right)),
      pastWindow: Math.max(0, Math.round(t.right - window.innerWidth)),
      spilling: [...new Set(spilling)],
      headsOutside: heads
        .filter((h) => { const r = h.getBoundingClientRect(); return r.right > box.right + 0.5 || r.left < box.left - 0.5; })
        .map((h) => h.textContent.trim()),
    };
  })()`);
}

describe('the Indices table at 1024x700', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`fits its box, every column and cell inside it: ${scheme}`, async () => {
      await j.page.emulateMedia({ colorScheme: scheme });
      await j.tab('indices');
      await j.page.locator('[data-test="index-row"]').first().waitFor();
      const boxes = await tableBoxes();
      await j.shot(`${scheme}-indices`);
      expect(boxes.rows).toBeGreaterThan(0);
      expect(boxes).toMatchObject({ pastBox: 0, pastWindow: 0, spilling: [], headsOutside: [] });
    });
  }
});
