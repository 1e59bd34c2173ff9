// Loaded into a CLI run by runCli({ measureUsage: true }) (node --import): when the process exits,
// it writes what it used to the file SITEMAPKIT_TEST_USAGE names, as JSON: its peak resident
// memory in bytes and the CPU time it spent in seconds. Linux counts the peak in /proc (VmHWM)
// from the process's own start; getrusage's maxRSS, the fallback elsewhere, keeps the parent's
// peak across fork and exec, so it may say more, never less.
import { readFileSync, writeFileSync } from 'node:fs';

function peakMemory() {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

const file = process.env.SITEMAPKIT_TEST_USAGE;
if (file) {
  process.on('exit', () => {
    const { userCPUTime, systemCPUTime } = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ peakMemory: peakMemory(), cpuSeconds: (userCPUTime + systemCPUTime) / 1e6 }));
  });
}
