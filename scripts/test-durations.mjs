// A reporter for Node's test runner (`node scripts/run-tests.mjs --durations`): at the end of the
// run, the test files whose tests took longest (the sum of their top-level tests, loading aside),
// the number of files and the run's time from the first event to the last.
const SHOWN = 25;

export default async function* testDurations(source) {
  const byFile = new Map();
  const started = performance.now();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const file = event.data.file ?? '(no file)';
    byFile.set(file, (byFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const wall = (performance.now() - started) / 1000;
  const slowest = [...byFile].sort(([, a], [, b]) => b - a).slice(0, SHOWN);
  const total = [...byFile.values()].reduce((sum, ms) => sum + ms, 0) / 1000;
  yield `\n${byFile.size} test files in ${wall.toFixed(0)} s; their tests took ${total.toFixed(0)} s in all. Slowest:\n`;
  for (const [file, ms] of slowest) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
