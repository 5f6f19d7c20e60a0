import { describe, expect, it } from 'vitest';
import {
  isCheckpointCall,
  normalizeToolName,
  shellCommandWrites,
  stateChangeOfCall,
} from '../../../src/core/guardian/replay-rules.js';

describe('normalizeToolName', () => {
  it.each([
    ['Write', 'write'],
    ['MultiEdit', 'multi_edit'],
    ['NotebookEdit', 'notebook_edit'],
    ['mcp__fs__write_file', 'write_file'],
    ['apply-patch', 'apply_patch'],
  ])('%s → %s', (name, normalized) => {
    expect(normalizeToolName(name)).toBe(normalized);
  });
});

describe('shellCommandWrites', () => {
  it.each([
    'echo hi > out.txt',
    'cat a >> log.txt',
    'rm -rf build',
    'mkdir -p dist && cp a dist/',
    'sed -i s/a/b/ file.ts',
    'git commit -m fix',
    'FOO=1 npm install left-pad',
    'ls | tee listing.txt',
    'sudo mv a b',
  ])('%j writes', (cmd) => {
    expect(shellCommandWrites(cmd)).toBe(true);
  });

  it.each([
    'ls -la',
    'npm test 2>&1',
    'cat a > /dev/null',
    'grep -r foo src',
    'git status',
    'git diff',
    'python -m pytest -q',
    'echo done >&2',
  ])('%j does not', (cmd) => {
    expect(shellCommandWrites(cmd)).toBe(false);
  });
});

describe('stateChangeOfCall', () => {
  it('knows writing tools, editor view commands and shells', () => {
    expect(stateChangeOfCall({ id: 'c', name: 'Edit', arguments: '{}' })).toBe('the edit tool');
    expect(
      stateChangeOfCall({ id: 'c', name: 'str_replace_editor', arguments: '{"command":"view"}' }),
    ).toBeNull();
    expect(
      stateChangeOfCall({ id: 'c', name: 'str_replace_editor', arguments: '{"command":"create"}' }),
    ).not.toBeNull();
    expect(stateChangeOfCall({ id: 'c', name: 'bash', arguments: '{"command":["bash","-lc","rm x"]}' })).toBe(
      'a shell command that writes',
    );
    expect(stateChangeOfCall({ id: 'c', name: 'read', arguments: '{}' })).toBeNull();
  });
});

describe('isCheckpointCall', () => {
  it('recognizes checkpoint tools and `guardian checkpoint` in a shell, not other guardian commands', () => {
    expect(isCheckpointCall({ id: 'c', name: 'guardian', arguments: '{}' })).toBe(true);
    expect(
      isCheckpointCall({
        id: 'c',
        name: 'bash',
        arguments: '{"command":"npx context-stability guardian checkpoint --next-action x"}',
      }),
    ).toBe(true);
    expect(
      isCheckpointCall({
        id: 'c',
        name: 'bash',
        arguments: '{"command":"context-stability guardian status --pressure 0.2"}',
      }),
    ).toBe(false);
  });
});
