import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, METHODS } from '../../shared/contract';

const AREAS_DIR = join(import.meta.dirname, '..');
const AREAS = readdirSync(AREAS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== '__tests__')
  .map((e) => e.name)
  .sort();

/** An area's contract module: `<area>Methods` and, when it has events, `<area>Events`. */
async function areaContract(area: string): Promise<Record<string, Record<string, unknown>>> {
  return (await import(`../${area}/contract.ts`)) as Record<string, Record<string, unknown>>;
}

describe('the areas: one folder per area of the contract', () => {
  it('finds the areas', () => {
    expect(AREAS).toContain('catalog');
    expect(AREAS.length).toBeGreaterThanOrEqual(14);
  });

  it.each(AREAS)(
    '%s: holds its contract, its handlers and a spec that checks its arguments',
    (area) => {
      for (const file of ['contract.ts', 'handlers.ts']) {
        expect(existsSync(join(AREAS_DIR, area, file)), `${area}/${file}`).toBe(true);
      }
      const spec = join(AREAS_DIR, area, '__tests__', `${area}.spec.ts`);
      expect(existsSync(spec), `${area}/__tests__/${area}.spec.ts`).toBe(true);
      expect(readFileSync(spec, 'utf8')).toContain(
        `describeArgumentChecks('${area}', ${area}Methods,`,
      );
    },
  );

  it("the contract is exactly the areas' methods and events, each in one area", async () => {
    const methods: string[] = [];
    const events: string[] = [];
    for (const area of AREAS) {
      const mod = await areaContract(area);
      methods.push(...Object.keys(mod[`${area}Methods`] ?? {}));
      events.push(...Object.keys(mod[`${area}Events`] ?? {}));
    }
    expect(methods.sort()).toEqual([...METHODS].sort());
    expect(events.sort()).toEqual([...EVENT_NAMES].sort());
  });
});
