// The date sweep's last lines (scripts/time-sweep.mjs): one per date, how its tests went. All
// dates run in one Vitest run, so the runner's own summary does not tell them apart; the
// project names do (`domain @ 2028-06-16T10:30:00Z`).
import { failuresOfFile } from './problems-reporter.mjs';
import { sweepDates } from './time-sweep.mjs';

export default class TimeSweepReporter {
  onTestRunEnd(testModules) {
    const byDate = new Map();
    for (const testModule of testModules) {
      const at = testModule.project.name.split(' @ ')[1];
      if (!at) continue;
      const counts = byDate.get(at) ?? { passed: 0, failed: 0, files: new Set() };
      byDate.set(at, counts);
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        if (state === 'failed') failedTests += 1;
      }
      counts.failed += failuresOfFile(testModule.state() === 'failed', failedTests);
      if (testModule.state() === 'failed') counts.files.add(testModule.moduleId.replace(/^.*\/(apps|packages)\//, '$1/'));
    }
    console.log('');
    for (const [at, counts] of byDate) {
      const why = sweepDates.find((date) => date.at === at)?.why ?? 'by hand';
      const outcome = counts.failed === 0 ? 'ok' : `FAILED (${counts.failed} failed: ${[...counts.files].join(', ')})`;
      console.log(`--- ${at}: ${outcome}, ${counts.passed} passed (${why})`);
    }
  }
}
