// Fallback peak-RSS probe of bench/process-run.ts, used where GNU time (`/usr/bin/time -f`) is
// missing (macOS, some containers): runs a Node entry script in this very process and, at exit,
// writes the process's own peak RSS and CPU time (all threads, worker threads included) to OUT.
//   node bench/rss-wrapper.mjs OUT.json SCRIPT [ARG…]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [out, script, ...args] = process.argv.slice(2);
if (out === undefined || script === undefined) {
  process.stderr.write('Usage: node bench/rss-wrapper.mjs OUT.json SCRIPT [ARG…]\n');
  process.exit(2);
}
process.on('exit', () => {
  const usage = process.resourceUsage();
  // maxRSS is in kilobytes; CPU times in microseconds.
  const report = {
    maxRssKb: usage.maxRSS,
    userMs: usage.userCPUTime / 1000,
    systemMs: usage.systemCPUTime / 1000,
  };
  writeFileSync(out, `${JSON.stringify(report)}\n`);
});
// The script sees the argv it would see when run directly.
const entry = path.resolve(script);
process.argv = [process.argv[0] ?? process.execPath, entry, ...args];
await import(pathToFileURL(entry).href);
