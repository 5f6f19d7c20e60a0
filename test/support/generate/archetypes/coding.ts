// Coding-agent sessions: bash/read/edit/write tools, edit → test → fail retry runs that end in a
// pass, verbose outputs, parallel reads, repeated command outputs, decisions, pinned constraints,
// and the odd credential read from a config file (planted PII).

import type { ToolCallSpec } from '../builder.js';
import { email, ipv4, secret } from '../pii.js';
import {
  codeLine,
  failingTestRun,
  filePath,
  passingTestRun,
  sourceListing,
  testFailure,
  testPath,
  verboseOutput,
  verboseTokens,
} from '../text/coding-output.js';
import { MODULES, NOUNS, VERBS } from '../text/vocab.js';
import { chatter, newTask, phase, question, sentences, summary } from './common.js';
import type { SessionState } from './common.js';

const SYSTEM = [
  'You are a coding agent working in a TypeScript repository.',
  'Use the bash, read, edit and write tools. Run the tests after every change.',
  'Never push to the main branch. Keep changes small and explain each decision.',
].join('\n');

const POLICY =
  'Constraints: do not modify files under vendor/. Do not disable failing tests. Ask before adding dependencies.';

function taskText(s: SessionState): string {
  const { rng } = s;
  return `Fix the ${rng.pick(NOUNS)} handling in ${rng.pick(MODULES)}: ${rng.pick(VERBS)} must not drop the last ${rng.pick(NOUNS)} when the input is ${rng.pick(['empty', 'nested', 'truncated', 'large'])}. Make the test suite pass.`;
}

export function openCoding(s: SessionState): void {
  const { b, rng } = s;
  b.message({ kind: 'system', content: SYSTEM });
  if (rng.chance(0.7)) b.message({ kind: 'policy', content: POLICY });
  b.message({ kind: 'task', content: taskText(s), ...(rng.chance(0.6) ? { pin: true } : {}) });
  phase(s, 'explore');
}

const bash = (command: string, content: string, exitCode: number, tags?: string[]): ToolCallSpec => ({
  name: 'bash',
  args: { command },
  result: { content, exitCode, isError: exitCode !== 0, ...(tags ? { tags } : {}) },
});

/** 2–4 reads in one assistant message (parallel tool calls). */
function parallelReads(s: SessionState): boolean {
  const { b, rng } = s;
  const calls: ToolCallSpec[] = [];
  for (let i = rng.int(2, 4); i > 0; i--) {
    const path = filePath(rng);
    calls.push({ name: 'read', args: { path }, result: { content: sourceListing(rng, rng.int(60, 900)) } });
  }
  return b.toolRound('I will read the relevant files together.', calls) !== null;
}

function verboseCommand(s: SessionState): boolean {
  const { b, rng } = s;
  const v = verboseOutput(rng);
  return (
    b.toolRound(sentences(rng, 1), [
      bash(v.command, v.output, v.exitCode, v.exitCode ? ['error'] : undefined),
    ]) !== null
  );
}

/** The same command run twice with identical output (exact duplicate) or one changed line (near). */
function repeatedOutput(s: SessionState): boolean {
  const { b, rng } = s;
  const v = verboseOutput(rng);
  const first = b.toolRound('Checking the current state.', [bash(v.command, v.output, v.exitCode)]);
  if (!first) return false;
  if (rng.chance(0.3)) verboseCommand(s);
  let again = v.output;
  if (rng.chance(0.5)) {
    const lines = again.split('\n');
    const at = rng.int(0, lines.length - 1);
    lines[at] = `${lines[at] ?? ''} (changed)`;
    again = lines.join('\n');
  }
  b.toolRound('Running it again to compare.', [bash(v.command, again, v.exitCode)]);
  return true;
}

function editCall(s: SessionState, path: string): ToolCallSpec {
  const { rng } = s;
  return {
    name: 'edit',
    args: { path, old_string: codeLine(rng).trim(), new_string: codeLine(rng).trim() },
    result: { content: `The file ${path} has been updated.` },
  };
}

/**
 * edit → test → fail → edit → test → fail → … → pass: one retry run of the test command family
 * (failures tagged `error`, same first error line each time), sometimes with reads in between.
 */
function retryRun(s: SessionState): boolean {
  const { b, rng } = s;
  const test = testPath(rng);
  const source = filePath(rng);
  const command = `npm test -- ${test}`;
  const failure = testFailure(rng, test);
  const failures = rng.int(1, 5);
  if (!b.toolRound(`I will change ${source} and rerun ${test}.`, [editCall(s, source)])) return false;
  for (let i = 0; i <= failures; i++) {
    const pass = i === failures;
    const output = pass
      ? passingTestRun(rng, test, Math.max(200, verboseTokens(rng) / 2))
      : failingTestRun(rng, failure, verboseTokens(rng));
    const ran = b.toolRound(
      pass ? 'Running the tests again.' : i === 0 ? 'Running the tests.' : 'Trying again after the fix.',
      [bash(command, output, pass ? 0 : 1, [pass ? 'result' : 'error'])],
    );
    if (!ran || pass) return true;
    if (rng.chance(0.3)) parallelReads(s);
    const fixed = b.toolRound(sentences(rng, 1), [editCall(s, rng.chance(0.7) ? source : filePath(rng))]);
    if (!fixed) return true;
  }
  return true;
}

function writeFile(s: SessionState): boolean {
  const { b, rng } = s;
  const path = filePath(rng);
  const lines: string[] = [];
  for (let i = rng.int(10, 80); i > 0; i--) lines.push(codeLine(rng));
  const content = lines.join('\n');
  return (
    b.toolRound(`Creating ${path}.`, [
      {
        name: 'write',
        args: { path, content },
        result: { content: `File created successfully at: ${path}` },
      },
    ]) !== null
  );
}

function decision(s: SessionState): boolean {
  const { b, rng } = s;
  const a = b.message({
    kind: 'assistant',
    content: `Decision: ${rng.pick(VERBS)} the ${rng.pick(NOUNS)} in ${rng.pick(MODULES)} instead of patching every caller. ${sentences(rng, 1)}`,
    tags: ['decision'],
    ...(rng.chance(0.3) ? { pin: true } : {}),
  });
  return a !== null;
}

/** The user adds a constraint (sometimes pinned) or asks for status (sometimes repeated). */
function userTurn(s: SessionState): boolean {
  const { b, rng } = s;
  if (rng.chance(0.4)) {
    return (
      b.message({
        kind: 'user',
        content: `Please keep the ${rng.pick(NOUNS)} API backwards compatible.`,
        ...(rng.chance(0.5) ? { pin: true } : {}),
      }) !== null
    );
  }
  return chatter(s) || question(s) !== null;
}

/** Output that leaks PII: an `.env` with a credential and a host address, or commit authors' emails. */
function leakyOutput(s: SessionState): boolean {
  const { b, rng, faker } = s;
  if (rng.chance(0.5)) {
    const key = secret(rng);
    const ip = ipv4(rng);
    const content = [
      'NODE_ENV=development',
      `PORT=${rng.int(3000, 9000)}`,
      `API_KEY=${key}`,
      `DB_HOST=${ip}`,
      `LOG_LEVEL=${rng.pick(['debug', 'info'])}`,
    ].join('\n');
    const plants = [
      { type: 'secret' as const, value: key },
      { type: 'ip_address' as const, value: ip },
    ];
    const call = { name: 'read', args: { path: '.env' }, result: { content, plants } };
    return b.toolRound('Let me check the environment configuration.', [call]) !== null;
  }
  const commits: string[] = [];
  const plants: { type: 'email'; value: string }[] = [];
  for (let i = rng.int(2, 5); i > 0; i--) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const address = email(rng, first, last);
    plants.push({ type: 'email', value: address });
    commits.push(
      `commit ${rng.hex(40)}\nAuthor: ${first} ${last} <${address}>\n\n    ${rng.pick(VERBS)} ${rng.pick(NOUNS)} handling\n`,
    );
  }
  const call = bash('git log -5', commits.join('\n'), 0);
  return b.toolRound('Who changed this last?', [{ ...call, result: { ...call.result, plants } }]) !== null;
}

export function codingEpisode(s: SessionState): boolean {
  const { rng } = s;
  if (s.phase === 'explore' && rng.chance(0.25)) return phase(s, 'implement');
  if (s.phase === 'implement' && rng.chance(0.1)) return phase(s, 'verify');
  if (s.phase === 'verify' && rng.chance(0.15)) return newTask(s, taskText(s), 'explore');
  const step = rng.weighted<() => boolean>([
    [() => parallelReads(s), 3],
    [() => verboseCommand(s), 3],
    [() => retryRun(s), s.phase === 'explore' ? 1 : 4],
    [() => repeatedOutput(s), 1.5],
    [() => writeFile(s), 1],
    [() => decision(s), 1],
    [() => userTurn(s), 1.5],
    [() => summary(s), 1],
    [() => leakyOutput(s), 0.5],
  ]);
  return step();
}
