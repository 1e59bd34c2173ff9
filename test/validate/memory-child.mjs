// Validates standard input (an endless urlset the parent writes) with the built library, then
// prints what it found and its own peak memory: the parent asserts both (memory.test.ts).
import { validateSources } from '../../dist/src/index.js';

const [result] = await validateSources([{ name: '-', input: process.stdin }], {
  now: new Date('2024-05-02T12:00:00Z'),
});
process.stdin.destroy();
const codes = [...new Set(result.diagnostics.map((d) => d.code))].sort();
process.stdout.write(JSON.stringify({ urls: result.urls, codes, maxRssKiB: process.resourceUsage().maxRSS }));
