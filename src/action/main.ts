// The action's entry (dist/index.js is this file bundled): parse every input first, stop with a
// message naming each bad one, then run the same check code as the CLI (run.ts).
import * as core from '@actions/core';
import { parseInputs, readRawInputs } from './inputs.js';
import { runAction } from './run.js';
import { isGoldenWorker } from '../cli/check/golden-worker.js';

async function main(): Promise<void> {
  const env = process.env;
  const cwd = env['GITHUB_WORKSPACE'] || process.cwd();
  const parsed = parseInputs(readRawInputs(env), cwd);
  if (!parsed.ok) {
    core.setFailed(`context-stability: invalid input. ${parsed.problems.map((p) => p.message).join(' ')}`);
    return;
  }
  // Worker threads start from this same bundle (`jobs`); there golden-worker.ts serves instead.
  await runAction(parsed.options, { cwd, env, workerScript: { url: new URL(import.meta.url) } });
}

try {
  if (!isGoldenWorker()) await main();
} catch (error) {
  // The kind only: an exception's message or stack may quote a transcript.
  const kind = error instanceof Error ? error.name : 'Error';
  core.setFailed(
    `context-stability failed unexpectedly (${kind}). Run \`npx context-stability check\` with the same ` +
      'inputs to see more, and report the bug.',
  );
}
