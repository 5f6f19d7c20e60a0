// Throughput of maskText with every detector on (the seven built-ins, digit_run off as in the
// default policy, plus one user rule), over the real transcripts in ../shared/corpus. A quick
// measurement script, not a test: `npx tsx test/core/pii/measure-throughput.ts`.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RE2JS } from 're2js';
import { createDetectors, maskText } from '../../../src/core/pii/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'licenses' ? [] : files(full);
    return /\.(jsonl?|traj)$/.test(name) && name !== 'SOURCES.json' ? [full] : [];
  });
}

const texts = files(corpus).map((f) => readFileSync(f, 'utf8'));
// Artifact-sized pieces as the stabilizer sees them: one JSON line (or ~4 KB) at a time.
const pieces = texts.flatMap((t) => t.split('\n')).filter((s) => s.length > 0);
const bytes = pieces.reduce((n, s) => n + Buffer.byteLength(s), 0);
const argv = process.argv.slice(2);
const digitRun = argv.includes('--digit-run') ? 3 : 0;
const detectors = createDetectors({
  detectors: ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret'],
  digit_run: digitRun,
  rules: [{ name: 'employee_id', re: RE2JS.compile('EMP-\\d{6}') }],
});
const opts = { replacement: '[REDACTED_{TYPE}]', allow: [] };

for (const s of pieces) maskText(s, detectors, opts); // warm-up
// CPU time of this process, best of several rounds: wall time on a shared machine measures the
// neighbours.
let best = Infinity;
let masked = 0;
for (let r = 0; r < 7; r++) {
  masked = 0;
  const t0 = process.cpuUsage();
  for (const s of pieces)
    masked += Object.values(maskText(s, detectors, opts).counts).reduce((a, b) => a + b, 0);
  const used = process.cpuUsage(t0);
  best = Math.min(best, (used.user + used.system) / 1e6);
}
console.log(
  `${pieces.length} pieces, ${(bytes / 1e6).toFixed(2)} MB: ${(bytes / 1e6 / best).toFixed(1)} MB/s of CPU time` +
    ` (digit_run ${digitRun}, ${masked} regions masked)`,
);
