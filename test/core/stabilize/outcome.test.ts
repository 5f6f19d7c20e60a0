// Outcome or contents (DESIGN §4 stage 8): decided from the result, never from the tool's name.
import { describe, expect, it } from 'vitest';
import { contentsOnlyTools, isReadCommand, outcomeSignal } from '../../../src/core/stabilize/outcome.js';
import { buildWork } from '../../../src/core/stabilize/work.js';
import { asst, bash, call, calls, result, t, user, words } from '../../support/artifacts.js';
import { entry, fate, policy, run } from './helpers.js';

const JEST_TAIL = [
  'FAIL src/ledger.test.ts',
  '  ● total › adds tax',
  'Tests:       1 failed, 212 passed, 213 total',
  'Snapshots:   0 total',
  'Time:        3.2 s',
  'Ran all test suites.',
].join('\n');

describe('outcomeSignal: outcomes', () => {
  it.each([
    ['is_error', { text: 'whatever', is_error: true }, 'is_error'],
    ['exit code 0', { text: 'done', exit_code: 0 }, 'exit_code'],
    ['an error tag', { text: 'boom', tags: ['error'] }, 'error_tag'],
    [
      'a shell build command without exit code',
      { text: 'compiled 12 files', command: 'npm run build' },
      'command',
    ],
    [
      'kubectl table (a command, not a read)',
      { text: 'NAME READY\nweb 1/1', command: 'kubectl get pods -n web' },
      'command',
    ],
    [
      'piped into tail: the first command counts',
      { text: 'x', command: 'npm test 2>&1 | tail -20' },
      'command',
    ],
    ['cat into a file: a write', { text: '', command: "cat > notes.md <<'EOF'\nhi\nEOF" }, 'command'],
    ['sed -i: a write', { text: '', command: "sed -i 's/a/b/' f.txt" }, 'command'],
    ['JSON exit_code', { text: '{"stdout": "ok", "exit_code": 1}' }, 'json_status'],
    ['JSON returncode', { text: '{"returncode": 0, "stdout": "x"}' }, 'json_status'],
    ['JSON status', { text: '{"status": "failed", "job": 12}' }, 'json_status'],
    ['JSON error', { text: '{"error": {"message": "not found"}}' }, 'json_status'],
    ['Codex metadata.exit_code', { text: '{"output": "x", "metadata": {"exit_code": 0}}' }, 'json_status'],
    ['last line Exit code: 1', { text: 'building…\nExit code: 1' }, 'status_line'],
    ['exit status 2', { text: 'go: build failed\nexit status 2' }, 'status_line'],
    ['Process exited with code 0', { text: 'Process exited with code 0\nhello' }, 'status_line'],
    ['OpenHands trailer', { text: 'x\n[The command completed with exit code 1.]' }, 'status_line'],
    ['Command failed', { text: 'Command failed: npm run deploy\nsomething' }, 'status_line'],
    ['Error: first line', { text: 'Error: ENOENT: no such file\n    at open' }, 'status_line'],
    ['Traceback', { text: 'Traceback (most recent call last):\n  File "a.py"\nKeyError: 3' }, 'status_line'],
    ['a Python exception last', { text: 'running\nValueError: bad input' }, 'status_line'],
    ['jest summary', { text: `${words(50)}\n${JEST_TAIL}` }, 'status_line'],
    ['pytest summary', { text: 'collected 4 items\n==== 3 passed, 1 failed in 0.12s ====' }, 'status_line'],
    ['plain counts', { text: 'checking\n3 passed, 1 failed' }, 'status_line'],
    ['cargo', { text: 'running 3 tests\ntest result: ok. 3 passed; 0 failed' }, 'status_line'],
    ['go test', { text: 'ok  \texample.com/pkg\t0.012s' }, 'status_line'],
    ['tsc', { text: 'src/a.ts(1,1): error TS1\nFound 1 error in src/a.ts' }, 'status_line'],
    ['a one-word verdict', { text: 'ok' }, 'status_line'],
    ['a change confirmed', { text: 'File created successfully at: /repo/a.ts' }, 'status_line'],
    ['Codex apply_patch', { text: 'Success. Updated the following files:\nM src/a.ts' }, 'status_line'],
    [
      'an excerpt of a JSON status object',
      { text: '{"status":"failed","log":"alpha beta [... 40 tokens left out ...] gamma"}' },
      'json_status',
    ],
    [
      'an excerpt whose head was cut: markers are not lines',
      { text: '[... 300 tokens left out ...]\nError: cache is stale\n[... 20 tokens left out ...]' },
      'status_line',
    ],
    [
      'a failed read (cat)',
      { text: 'cat: x: No such file or directory', exit_code: 1, command: 'cat x' },
      'exit_code',
    ],
  ])('%s', (_label, facts, signal) => {
    expect(outcomeSignal(facts)).toBe(signal);
  });
});

describe('outcomeSignal: contents', () => {
  it.each([
    ['file text', { text: 'export function total(a: number) {\n  return a * 1.2;\n}\n' }],
    [
      'a document excerpt',
      { text: '# Refunds\n\nA refund is issued within 14 days. Errors in invoices are fixed by support.' },
    ],
    ['prose that mentions counts', { text: 'Of the candidates, 3 passed the exam\nand 2 failed it later.' }],
    ['a search listing', { text: 'src/a.ts:12: // TODO: error handling\nsrc/b.ts:3: // TODO' }],
    ['a JSON record without status', { text: '{"id": 7, "title": "Refund policy", "body": "…"}' }],
    ['a JSON array', { text: '[{"status": "ok"}]' }],
    ['cat output', { text: words(20), command: 'cat src/a.ts' }],
    ['sed -n range', { text: words(20), command: "sed -n '10,40p' src/a.ts" }],
    ['grep | head', { text: 'src/a.ts:1:x', command: 'grep -rn TODO src | head -20' }],
    ['cd then git diff', { text: 'diff --git a/x b/x', command: 'cd repo && git diff --stat' }],
    ['find without -exec', { text: './a\n./b', command: 'find . -name "*.ts"' }],
    ['ls 2>/dev/null', { text: 'a\nb', command: 'ls -la src 2>/dev/null' }],
    // SWE-agent's viewer commands show file contents (issue 31).
    ['SWE-agent open', { text: '[File: /repo/src/a.py (120 lines total)]', command: 'open src/a.py 40' }],
    ['SWE-agent search_dir', { text: 'Found 3 matches', command: 'search_dir "fields.Nested" src' }],
    ['a kubectl table from a non-shell tool', { text: 'NAME READY STATUS\nweb-1 1/1 Running' }],
  ])('%s', (_label, facts) => {
    expect(outcomeSignal(facts)).toBeUndefined();
  });

  it('tells read commands from the rest', () => {
    expect(isReadCommand('cat a | grep b')).toBe(true);
    expect(isReadCommand('git log --oneline -5')).toBe(true);
    expect(isReadCommand('git commit -m x')).toBe(false);
    expect(isReadCommand('find . -delete')).toBe(false);
    expect(isReadCommand('cat a > b')).toBe(false);
    expect(isReadCommand('echo hi')).toBe(false);
    expect(isReadCommand('npm test && cat log.txt')).toBe(false);
  });
});

describe('protection follows the classifier, not the tool name', () => {
  /** A custom read_doc tool (in protected_tools) and a deploy command. */
  function session() {
    return t(
      user('u', 'update the refund docs and deploy'),
      calls('a1', [call('c1', 'read_doc', { path: 'refunds.md' })]),
      result('r1', 'c1', words(40, 'refund')),
      calls('a2', [call('c2', 'read_doc', { path: 'returns.md' })]),
      result('r2', 'c2', words(40, 'return')),
      calls('a3', [bash('c3', 'make deploy')]),
      result('r3', 'c3', 'deployed 3 services'),
      asst('done', 'Deployed.'),
      user('u2', 'thanks'),
    );
  }
  const P = policy({ budget: 1000, keep_recent: 0, resilience: { protected_tools: ['bash', 'read_doc'] } });

  it('leaves read_doc results unprotected (contents), one per path or not, and protects the deploy outcome', () => {
    const r = run(session(), P);
    expect(entry(r, 'r1').protected_by).toBeUndefined();
    expect(entry(r, 'r2').protected_by).toBeUndefined();
    expect(entry(r, 'a1').protected_by).toBeUndefined();
    expect(entry(r, 'r3').protected_by).toEqual(['latest:bash:make deploy']);
  });

  it('lets read_doc results compete on budget instead of escalating', () => {
    const r = run(session(), { ...P, budget: 40 });
    expect(fate(r, 'r1')).toBe('dropped/budget');
    expect(r.status).not.toBe('escalated');
  });

  it('protects a read_doc result that failed', () => {
    const tr = t(
      user('u', 'read it'),
      calls('a1', [call('c1', 'read_doc', { path: 'gone.md' })]),
      result('r1', 'c1', 'no such document', { is_error: true }),
      user('u2', 'and?'),
    );
    expect(entry(run(tr, P), 'r1').protected_by).toEqual(expect.arrayContaining(['latest:read_doc:gone.md']));
  });

  it('lists the protected tools whose every result is contents (contentsOnlyTools)', () => {
    const ws = buildWork(session());
    expect(contentsOnlyTools(ws, ['bash', 'read_doc', 'apply_patch'])).toEqual(['read_doc']);
    // One outcome among its results (a failed read) and the tool is no longer contents-only.
    const failed = t(
      ...session().artifacts,
      calls('a9', [call('c9', 'read_doc', { path: 'x.md' })]),
      result('r9', 'c9', 'Error: document not found'),
    );
    expect(contentsOnlyTools(buildWork(failed), ['read_doc'])).toEqual([]);
  });
});
