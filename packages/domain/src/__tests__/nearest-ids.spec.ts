/** The nearest known ids to a typed one (the CLI's warning, the desktop forms' note). */
import { describe, expect, it } from 'vitest';
import { editDistance, nearestChoices } from '../nearest-ids';

describe('nearest known choices', () => {
  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('by id or name, case-insensitive, at most three, ties in list order', () => {
    const choices = [
      { id: 'p-1', name: 'Flood response' },
      { id: 'p-2', name: 'Crop monitoring' },
      { id: 'p-3', name: null },
      { id: 'p-4', name: null },
    ];
    expect(nearestChoices('crop monitorin', choices)[0]).toEqual({
      id: 'p-2',
      name: 'Crop monitoring',
    });
    expect(nearestChoices('P-4', choices).map((c) => c.id)).toEqual(['p-4', 'p-1', 'p-2']);
  });
});
