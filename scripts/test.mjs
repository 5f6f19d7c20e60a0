// `npm test`: lint, typecheck, build, then the whole vitest suite, stopping at the first step that
// fails. Ends with how long each step took, so a contributor sees when the suite gets slower
// (the README states the time on a 2-core machine). Arguments go to vitest:
// `npm test -- --reporter=json --outputFile.json=out.json`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
const steps = [
  ['lint', bin('eslint'), ['.']],
  ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['typecheck', bin('tsc'), ['--noEmit']],
  ['build', 'npm', ['run', '--silent', 'build']],
  ['tests', bin('vitest'), ['run', ...process.argv.slice(2)]],
];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const times = [];
const started = Date.now();
let status = 0;
for (const [name, command, args] of steps) {
  const start = Date.now();
  const run = spawnSync(command, args, { stdio: 'inherit' });
  times.push([name, Date.now() - start]);
  status = run.status ?? 1;
  if (status !== 0) {
    console.error(`npm test: ${name} failed (exit ${status}${run.signal ? `, ${run.signal}` : ''}).`);
    break;
  }
}
const total = Date.now() - started;
console.log(
  `npm test: ${status === 0 ? 'passed' : 'failed'} in ${seconds(total)} (${times
    .map(([name, ms]) => `${name} ${seconds(ms)}`)
    .join(', ')}).`,
);
process.exit(status);
