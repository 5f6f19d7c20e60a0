// What the action does once started, for the entry (main.ts) and for tests that run it in-process:
// parse every input first, stop with a message naming each bad one, then run the same check code
// as the CLI (run.ts). Failures end as a failed step (`core.setFailed`), never as a throw.
import * as core from '@actions/core';
import { parseInputs, readRawInputs } from './inputs.js';
import { runAction } from './run.js';
import type { WorkerScript } from '../cli/check/golden-jobs.js';

/** `workerScript`: the bundle worker threads start from (`jobs`); without it everything runs here. */
export async function startAction(env: NodeJS.ProcessEnv, workerScript?: WorkerScript): Promise<void> {
  try {
    const cwd = env['GITHUB_WORKSPACE'] || process.cwd();
    const parsed = parseInputs(readRawInputs(env), cwd, env['RUNNER_TEMP'] || undefined);
    if (!parsed.ok) {
      core.setFailed(`context-stability: invalid input. ${parsed.problems.map((p) => p.message).join(' ')}`);
      return;
    }
    await runAction(parsed.options, { cwd, env, ...(workerScript ? { workerScript } : {}) });
  } catch (error) {
    // The kind only: an exception's message or stack may quote a transcript.
    const kind = error instanceof Error ? error.name : 'Error';
    core.setFailed(
      `context-stability failed unexpectedly (${kind}). Run \`npx context-stability check\` with the same ` +
        'inputs to see more, and report the bug.',
    );
  }
}
