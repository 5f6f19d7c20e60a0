// The CLI's stdout under GitHub Actions (GITHUB_ACTIONS=true): the runner reads every stdout and
// stderr line that starts with `::` (after leading whitespace) or holds `##[` as a workflow
// command. Names are already shown escaped (shownName), so no line of ours starts a command; as a
// second wall, output that holds names goes out between `::stop-commands::<token>` and
// `::<token>::` (src/github/log.ts: a fresh random token per block, one the text does not hold),
// whatever the format, except:
// - our own annotations (`check --format github`): they are written outside the blocks, where
//   the runner processes them; their names are escaped as command data, each one line;
// - JSON (`check --format json`, `inspect --json`): not wrapped, since it is meant for a file or
//   a pipe (`> report.json`, `| jq`) that stop-commands lines would break. It is inert by
//   construction instead: JSON escapes every control character, no line of it starts with `::`,
//   and `##[` is written `##\u005b` (inertJson), which parses to the same string;
// - markdown (`check --format markdown`): not wrapped either, since it is meant for the job summary
//   or a PR comment (`>> $GITHUB_STEP_SUMMARY`), where stop-commands lines would show. Its names
//   are escaped by shownName, so none of its lines starts a command.
import { inertJson } from '../core/text/shown-name.js';
import { wrapUntrusted } from '../github/log.js';
import type { CliIO } from './command.js';

export type OutputKind = 'text' | 'json' | 'markdown' | 'annotations';

/** Whether the CLI runs as a step of GitHub Actions (the runner sets GITHUB_ACTIONS=true). */
export function underGitHubActions(env: CliIO['env']): boolean {
  return env['GITHUB_ACTIONS'] === 'true';
}

/** A line that is one of our annotations, written by renderGithub with every property escaped. */
const OWN_COMMAND = /^::(error|warning|notice) /;

export interface GuardedOutput {
  /** The command's io, with stdout guarded; stderr and the rest as given. */
  io: CliIO;
  /** Writes what is held back; call once, when the command is done (also when it throws). */
  close(): void;
}

/**
 * Guards stdout of `check`, `update` and `inspect`. Under GitHub Actions, text is held back and
 * written in one stop-commands block at close; in `annotations` output, our annotation lines are
 * written outside the blocks, in order, and every other line inside one. Outside GitHub Actions
 * text passes through. JSON is made inert everywhere and never wrapped.
 */
export function guardOutput(io: CliIO, kind: OutputKind): GuardedOutput {
  const actions = underGitHubActions(io.env);
  let held = '';
  const flush = (): void => {
    if (held === '') return;
    io.stdout(wrapUntrusted(held));
    held = '';
  };
  const stdout = (text: string): void => {
    if (kind === 'json') {
      io.stdout(inertJson(text));
      return;
    }
    if (!actions || kind === 'markdown') {
      io.stdout(text);
      return;
    }
    if (kind === 'text') {
      held += text;
      return;
    }
    for (const line of text.split(/(?<=\n)/)) {
      if (OWN_COMMAND.test(line)) {
        flush();
        io.stdout(line);
      } else {
        held += line;
      }
    }
  };
  return { io: { ...io, stdout }, close: flush };
}
