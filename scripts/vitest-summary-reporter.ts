/**
 * Prints one plain closing line after the whole run, `tests: N passed, N failed`, which CI
 * reads as the suite's verdict (vitest's own summary is printed above it by the default reporter).
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed with no test failing is a failure too: it did not load, or a hook
      // threw (a `beforeAll` that cannot start what the file tests leaves its tests skipped).
      failed += failedHere === 0 && mod.state() === 'failed' ? 1 : failedHere;
    }
    failed += unhandledErrors.length;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${tail}\n`);
  }
}
