import { describe, expect, it } from 'vitest';
import { createGazetteer, foldName, loadGazetteer } from '../gazetteer';
import { parsePlaces } from '../place-text';

const places = parsePlaces(
  [
    'São Paulo\tBR\t-46.636\t-23.548\t10021295',
    'Paulo Afonso\tBR\t-38.214\t-9.406\t85350',
    'Malmö\tSE\t13.001\t55.606\t301706',
    'Łódź\tPL\t19.474\t51.759\t768755',
    'Portland\tUS\t-122.676\t45.523\t652503',
    'Portland\tAU\t141.604\t-38.343\t9712',
    'Port Louis\tMU\t57.499\t-20.162\t155226',
    'Straße\tDE\t10\t50\t2000',
  ].join('\n'),
);

describe('foldName', () => {
  it('ignores case, diacritics and punctuation', () => {
    expect(foldName('São Paulo')).toBe('sao paulo');
    expect(foldName('ŁÓDŹ')).toBe('lodz');
    expect(foldName('Straße')).toBe('strasse');
    expect(foldName('  Saint-Paul-en-Chablais ')).toBe('saint paul en chablais');
  });
});

describe('the gazetteer', () => {
  const g = createGazetteer([places]);
  const names = (q: string) => g.search(q).map((p) => `${p.name} ${p.country}`);

  it('matches prefixes without diacritics, exact names first, larger places first', () => {
    expect(names('sao p')).toEqual(['São Paulo BR']);
    expect(names('malmo')).toEqual(['Malmö SE']);
    expect(names('lodz')).toEqual(['Łódź PL']);
    expect(names('strasse')).toEqual(['Straße DE']);
    expect(names('port')).toEqual(['Portland US', 'Port Louis MU', 'Portland AU']);
    expect(names('portland')).toEqual(['Portland US', 'Portland AU']);
  });

  it('matches a word inside the name after the names that start with it', () => {
    expect(names('paulo')).toEqual(['Paulo Afonso BR', 'São Paulo BR']);
  });

  it('keeps one country with "name, CC"', () => {
    expect(names('portland, au')).toEqual(['Portland AU']);
  });

  it('finds nothing for nothing', () => {
    expect(g.search('  ')).toEqual([]);
    expect(g.search('zzzz')).toEqual([]);
  });

  it('searches every bundled place', async () => {
    const all = await loadGazetteer();
    expect(all.size).toBeGreaterThan(100_000);
    const sao = all.search('sao paulo')[0]!;
    expect(sao.name).toBe('São Paulo');
    expect(sao.lat).toBeCloseTo(-23.5, 0);
    // A small town (about 1,000 people) is there too.
    expect(all.search('coburg, us').map((p) => p.name)).toContain('Coburg');
  });
});
