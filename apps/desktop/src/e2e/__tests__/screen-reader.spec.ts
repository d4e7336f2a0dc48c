/**
 * What a screen reader hears of the catalog's results (issue 26), in headless Chromium against
 * the real reference service: the accessible names as Chromium computes them (its accessibility
 * tree, read over the DevTools protocol), not as the markup hopes. A row said "☁ 14 % ∠ 1.9°"
 * glyph by glyph; now "Cloud cover 14 %, off-nadir 1.9°", and the basket box has a name. axe-core
 * finds nothing serious in the list.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { eventually, resultTotal } from '../page-actions';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
const j = useJourney('screen-reader', { page: WIDE, open: 'synced' });

interface AxNode {
  readonly nodeId: string;
  readonly role?: { value?: string };
  readonly name?: { value?: string };
  readonly ignored?: boolean;
  readonly childIds?: string[];
}

/**
 * Chromium's accessibility tree under the node of `role` named `name`: each exposed node's role
 * and computed name.
 */
async function accessibleNodesIn(
  role: string,
  name: string,
): Promise<Array<{ role: string; name: string }>> {
  const cdp = await j.page.context().newCDPSession(j.page);
  try {
    await cdp.send('Accessibility.enable');
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const root = nodes.find((n) => n.role?.value === role && n.name?.value === name);
    expect(root, `a ${role} named ${name}`).toBeDefined();
    const out: Array<{ role: string; name: string }> = [];
    const walk = (n: AxNode): void => {
      if (!n.ignored) out.push({ role: n.role?.value ?? '', name: (n.name?.value ?? '').trim() });
      for (const id of n.childIds ?? []) {
        const child = byId.get(id);
        if (child) walk(child);
      }
    };
    walk(root!);
    return out;
  } finally {
    await cdp.detach();
  }
}

beforeAll(async () => {
  await j.page.evaluate(AXE_SOURCE);
});

describe('the results for a screen reader', () => {
  it('names each row with its figures in words, no glyphs, and no unnamed checkbox', async () => {
    await j.tab('catalog');
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => resultTotal(j.page)).toBeGreaterThan(0);
    await j.page.locator('#result-row-0[data-id]').waitFor();
    const nodes = await accessibleNodesIn('listbox', 'Search results');
    const options = nodes.filter((n) => n.role === 'option');
    expect(options.length).toBeGreaterThan(0);
    for (const o of options) {
      expect(o.name).toMatch(/Cloud cover (\d+ %|not given), off-nadir (\d+\.\d°|not given)/);
      expect(o.name).not.toMatch(/[☁∠]/);
    }
    const unnamedBoxes = nodes.filter((n) => n.role === 'checkbox' && n.name === '');
    expect(unnamedBoxes).toEqual([]);
  });

  it('axe-core finds no violation in the results list', async () => {
    const violations = await j.page.evaluate<string[]>(`(async () => {
      const r = await window.axe.run('.results', { resultTypes: ['violations'] });
      return r.violations.map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.length);
    })()`);
    expect(violations).toEqual([]);
  });
});
