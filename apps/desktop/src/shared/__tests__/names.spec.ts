import { describe, expect, it } from 'vitest';
import { contractNameArguments, contractNamesFromArgv } from '../names';

describe("the contract's names on the preload's command line", () => {
  it('round-trips the names main passes', () => {
    const argv = [
      '/electron',
      '--type=renderer',
      ...contractNameArguments(['a.b', 'c.dE'], ['x.y']),
    ];
    const names = contractNamesFromArgv(argv);
    expect([...names.methods]).toEqual(['a.b', 'c.dE']);
    expect([...names.events]).toEqual(['x.y']);
  });

  it('main refuses to pass what is not a name', () => {
    for (const bad of ['a', 'a.b,c.d', 'a.b\\c', '', 'a.b c', '__proto__.x', 'A.b']) {
      expect(() => contractNameArguments([bad], [])).toThrow(/not a contract name/);
    }
  });

  it('refuses hostile or missing command lines with a clear error', () => {
    const events = '--eo-events=x.y';
    const cases: Array<[string[], RegExp]> = [
      [[], /without --eo-methods=/],
      [['--eo-methods=a.b'], /without --eo-events=/],
      [['--eo-methods=', events], /does not list/],
      [['--eo-methods=a.b,,c.d', events], /does not list/],
      [['--eo-methods=a.b,constructor', events], /does not list/],
      [['--eo-methods=a.b;rm -rf', events], /does not list/],
      [[`--eo-methods=${'a.b,'.repeat(5000)}a.b`, events], /does not list/],
      [['--eo-methods=a.b', '--eo-events=x.y\u0000'], /does not list/],
    ];
    for (const [argv, error] of cases) expect(() => contractNamesFromArgv(argv)).toThrow(error);
  });
});
