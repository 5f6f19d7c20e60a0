// Claude Code's own records in the user's turn (issue 31): slash-command stubs, local command output,
// the caveat, the `!` shell and `isMeta` records are tagged `meta` and are never the task statement
// or the latest request; the prompt Claude Code writes for a command (the `isMeta` record after the
// stub, holding the command's arguments) is the request.
import { describe, expect, it } from 'vitest';
import { latestUserRequest, taskStatement } from '../../../src/core/scope/task.js';
import type { Transcript } from '../../../src/core/types.js';
import { fixture, load } from './helpers.js';

const FILE = 'claude-code-commands.jsonl';

function session(records: Record<string, unknown>[]): Transcript {
  return load(records.map((r) => JSON.stringify(r)).join('\n') + '\n', { file: 'session.jsonl' });
}

function user(
  uuid: string,
  parentUuid: string | null,
  content: unknown,
  extra: Record<string, unknown> = {},
) {
  return { type: 'user', uuid, parentUuid, sessionId: 's', message: { role: 'user', content }, ...extra };
}

function assistant(uuid: string, parentUuid: string | null, text: string) {
  return {
    type: 'assistant',
    uuid,
    parentUuid,
    sessionId: 's',
    message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'text', text }] },
  };
}

const meta = (t: Transcript): string[] =>
  t.artifacts.filter((a) => a.tags?.includes('meta')).map((a) => a.id);
const task = (t: Transcript): string[] => taskStatement(t.artifacts).artifacts.map((a) => a.id);

describe('Claude Code command records (fixture)', () => {
  const t = load(fixture(FILE), { file: FILE });

  it('tags the stubs, local output, caveat, shell records and isMeta records `meta`', () => {
    expect(meta(t)).toEqual(['u01', 'u02', 'u03', 'u04', 'u07', 'u08', 'u09', 'u12', 'u13']);
  });

  it('takes the prompt of /review (with its arguments) as the task statement', () => {
    expect(task(t)).toEqual(['u05']);
    expect(taskStatement(t.artifacts).rule).toBe('first-user-message');
  });

  it('takes the last message the user typed as the latest request, not the /cost after it', () => {
    expect(latestUserRequest(t.artifacts)?.id).toBe('u10');
  });

  it('keeps every record, with its content, as a user artifact', () => {
    expect(t.artifacts.filter((a) => a.kind === 'user')).toHaveLength(11);
    expect(t.diagnostics).toEqual([]);
  });
});

describe('Claude Code command records: rules', () => {
  it('takes the next typed message when a command wrote no prompt (/init without its expansion)', () => {
    const t = session([
      user(
        'a',
        null,
        '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>',
      ),
      user('b', 'a', 'please document the build commands'),
    ]);
    expect(task(t)).toEqual(['b']);
  });

  it('finds the prompt by file order when the log has no tree (parentUuid null)', () => {
    const t = session([
      user('a', null, '<command-name>/review</command-name><command-args>the login fix</command-args>'),
      user('b', null, [{ type: 'text', text: 'Review the changes.\n\nARGUMENTS: the login fix' }], {
        isMeta: true,
      }),
      assistant('c', null, 'Reviewing.'),
    ]);
    expect(meta(t)).toEqual(['a']);
    expect(task(t)).toEqual(['b']);
    expect(latestUserRequest(t.artifacts)?.id).toBe('b');
  });

  it('tags an isMeta record that answers no stub', () => {
    const t = session([
      user('a', null, 'fix the flaky test'),
      assistant('b', 'a', 'On it.'),
      user('c', 'b', [{ type: 'text', text: 'Base directory for this skill: /x' }], { isMeta: true }),
    ]);
    expect(meta(t)).toEqual(['c']);
    expect(latestUserRequest(t.artifacts)?.id).toBe('a');
  });

  it('does not take a message that only mentions a command for a stub', () => {
    const t = session([
      user('a', null, 'what does <command-name>/init</command-name> do?'),
      user('b', 'a', '<local-command-stdout>ok</local-command-stdout> and then what?'),
    ]);
    expect(meta(t)).toEqual([]);
    expect(task(t)).toEqual(['a']);
    expect(latestUserRequest(t.artifacts)?.id).toBe('b');
  });

  it('leaves a session of commands only with no task statement and no request', () => {
    const t = session([
      user(
        'a',
        null,
        '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
      ),
      user('b', 'a', '<local-command-stdout></local-command-stdout>'),
    ]);
    expect(taskStatement(t.artifacts)).toEqual({ artifacts: [], rule: 'none' });
    expect(latestUserRequest(t.artifacts)).toBeUndefined();
  });

  it('tags the same records in a Claude web export (loglines)', () => {
    const loglines = [
      user(
        'a',
        null,
        '<command-message>review is running…</command-message>\n<command-name>/review</command-name>',
      ),
      user('b', 'a', [{ type: 'text', text: 'Review the pending changes.' }], { isMeta: true }),
      assistant('c', 'b', 'Reviewing.'),
    ];
    const t = load(JSON.stringify({ loglines }), { file: 'session.json' });
    expect(t.format).toBe('claude-web');
    expect(meta(t)).toEqual(['m0']);
    expect(task(t)).toEqual(['m1']);
  });
});
