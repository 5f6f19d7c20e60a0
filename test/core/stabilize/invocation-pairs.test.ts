// Stage 6 (dedup): a result is superseded only by a later result of the identical invocation (same
// tool, same normalized arguments). A labelled table of real-world pairs: `same` pairs must share a
// supersession key, `different` pairs must not. Families (retry runs, latest outcome) are not at stake.
import { describe, expect, it } from 'vitest';
import { commandKeys } from '../../../src/core/stabilize/families.js';
import type { ToolCall } from '../../../src/core/types.js';
import { bash, call, calls, result, t, user } from '../../support/artifacts.js';
import { entry, fate, ids, policy, run } from './helpers.js';

type Args = Record<string, unknown> | string;
type Row = [label: string, same: boolean, a: [string, Args], b: [string, Args]];

const sh = (command: string): [string, Args] => ['bash', { command }];

const ROWS: Row[] = [
  // Shell: whitespace and quoting that change nothing.
  ['extra spaces', true, sh('npm  test'), sh(' npm test ')],
  ['tabs and a trailing newline', true, sh('git\tstatus\n'), sh('git status')],
  ['\'a b\' vs "a b"', true, sh("grep -rn 'total price' src"), sh('grep -rn "total price" src')],
  ['"a b" vs a\\ b', true, sh('cat "My File.txt"'), sh('cat My\\ File.txt')],
  ['quoted plain word', true, sh("kubectl get pods -n 'web'"), sh('kubectl get pods -n web')],
  ['operators without spaces', true, sh('make build&&make test'), sh('make build && make test')],
  ['line continuation', true, sh('docker run \\\n  --rm app'), sh('docker run --rm app')],
  ['newline vs ;', true, sh('cd app\nnpm test'), sh('cd app; npm test')],
  ['a trailing comment', true, sh('npm test # run the suite'), sh('npm test')],
  ['2>&1 spacing', true, sh('npm test 2>&1 | tail -20'), sh('npm test 2>&1|tail -20')],
  ['"$VAR" and $VAR', true, sh('echo "$HOME"'), sh('echo $HOME')],
  // Shell: different invocations.
  ['kubectl -n web / -n db', false, sh('kubectl get pods -n web'), sh('kubectl get pods -n db')],
  ['kubectl get / describe', false, sh('kubectl get pods -n web'), sh('kubectl describe pods -n web')],
  [
    'psql -c different queries',
    false,
    sh("psql -c 'select count(*) from users'"),
    sh("psql -c 'select count(*) from orders'"),
  ],
  ['psql -c same query, other quotes', true, sh("psql -c 'select 1'"), sh('psql -c "select 1"')],
  ['git log -5 / -10', false, sh('git log --oneline -5'), sh('git log --oneline -10')],
  ['git diff / git diff --staged', false, sh('git diff'), sh('git diff --staged')],
  ['git diff two paths', false, sh('git diff src/a.ts'), sh('git diff src/b.ts')],
  ['git status / git status -s', false, sh('git status'), sh('git status -s')],
  ['grep -rn two patterns', false, sh('grep -rn TODO src'), sh('grep -rn FIXME src')],
  ['grep -rn two scopes', false, sh('grep -rn TODO src'), sh('grep -rn TODO test')],
  ['rg with and without a type', false, sh('rg parseArgs'), sh('rg parseArgs -t ts')],
  ["'*.ts' literal vs *.ts glob", false, sh("ls '*.ts'"), sh('ls *.ts')],
  ["'$HOME' literal vs $HOME", false, sh("echo '$HOME'"), sh('echo $HOME')],
  ['one word vs two words', false, sh("echo 'a b'"), sh('echo a b')],
  ['another working directory', false, sh('cd packages/app && npm test'), sh('npm test')],
  ['an env assignment', false, sh('CI=1 npm test'), sh('npm test')],
  ['npm run build / lint', false, sh('npm run build'), sh('npm run lint')],
  // Shell tool arguments that do not change what runs.
  [
    'Claude Code Bash: description and timeout',
    true,
    ['Bash', { command: 'npm test', description: 'Run tests', timeout: 120000 }],
    ['Bash', { command: 'npm test', description: 'Run the unit tests' }],
  ],
  [
    'a working directory argument does',
    false,
    ['shell', { command: 'npm test', workdir: 'a' }],
    ['shell', { command: 'npm test', workdir: 'b' }],
  ],
  [
    'Codex argv: bash -lc script, spacing',
    true,
    ['shell', { command: ['bash', '-lc', 'npm  test'] }],
    ['shell', { command: ['bash', '-lc', 'npm test'] }],
  ],
  ['same command, another tool', false, sh('npm test'), ['zsh', { command: 'npm test' }]],
  // Reads: same path (normalized) and same range.
  ['./a/b vs a/b', true, ['read_file', { path: './src/app.ts' }], ['read_file', { path: 'src/app.ts' }]],
  [
    'trailing slash, double slash',
    true,
    ['list_dir', { path: 'src//lib/' }],
    ['list_dir', { path: 'src/lib' }],
  ],
  ['two files', false, ['read_file', { path: 'src/a.ts' }], ['read_file', { path: 'src/b.ts' }]],
  [
    'read_file: two line ranges',
    false,
    ['read_file', { path: 'src/a.ts', start_line: 1, end_line: 50 }],
    ['read_file', { path: 'src/a.ts', start_line: 51, end_line: 100 }],
  ],
  [
    'read_file: a range vs the whole file',
    false,
    ['read_file', { path: 'src/a.ts', start_line: 1, end_line: 50 }],
    ['read_file', { path: 'src/a.ts' }],
  ],
  [
    'Claude Code Read: same offset and limit, keys reordered',
    true,
    ['Read', { file_path: '/repo/src/a.ts', offset: 100, limit: 50 }],
    ['Read', { limit: 50, offset: 100, file_path: '/repo/src/a.ts' }],
  ],
  [
    'Claude Code Read: another offset',
    false,
    ['Read', { file_path: '/repo/src/a.ts', offset: 100, limit: 50 }],
    ['Read', { file_path: '/repo/src/a.ts', offset: 150, limit: 50 }],
  ],
  [
    'Claude Code Read: range vs whole file',
    false,
    ['Read', { file_path: '/repo/src/a.ts' }],
    ['Read', { file_path: '/repo/src/a.ts', offset: 1, limit: 2000 }],
  ],
  [
    'OpenHands view: same view_range',
    true,
    ['str_replace_editor', { command: 'view', path: '/workspace/a.py', view_range: [1, 40] }],
    ['str_replace_editor', { command: 'view', path: '/workspace/./a.py', view_range: [1, 40] }],
  ],
  [
    'OpenHands view: two view_ranges',
    false,
    ['str_replace_editor', { command: 'view', path: '/workspace/a.py', view_range: [1, 40] }],
    ['str_replace_editor', { command: 'view', path: '/workspace/a.py', view_range: [41, 80] }],
  ],
  [
    'OpenHands: the same str_replace twice (a write: never)',
    false,
    ['str_replace_editor', { command: 'str_replace', path: 'a.py', old_str: 'x', new_str: 'y' }],
    ['str_replace_editor', { command: 'str_replace', path: 'a.py', old_str: 'x', new_str: 'y' }],
  ],
  // Searches: same pattern and scope.
  [
    'grep tool: same pattern and path',
    true,
    ['grep', { pattern: 'TODO', path: 'src/' }],
    ['grep', { path: './src', pattern: 'TODO' }],
  ],
  [
    'Claude Code Grep: another include glob',
    false,
    ['Grep', { pattern: 'TODO', path: 'src', glob: '*.ts' }],
    ['Grep', { pattern: 'TODO', path: 'src', glob: '*.tsx' }],
  ],
  [
    'Claude Code Grep: another output mode',
    false,
    ['Grep', { pattern: 'TODO', output_mode: 'content' }],
    ['Grep', { pattern: 'TODO', output_mode: 'files_with_matches' }],
  ],
  [
    'Cursor grep_search: an explanation changes nothing',
    true,
    ['grep_search', { query: 'parseArgs', explanation: 'find the parser' }],
    ['grep_search', { query: 'parseArgs', explanation: 'where is it defined' }],
  ],
  ['glob: two patterns', false, ['Glob', { pattern: '**/*.ts' }], ['Glob', { pattern: '**/*.md' }]],
  // Web fetches: same URL (normalized) and same other arguments.
  [
    'URL: host case, trailing slash, fragment',
    true,
    ['web_fetch', { url: 'https://Docs.Example.com/guide/#install' }],
    ['web_fetch', { url: 'https://docs.example.com/guide' }],
  ],
  [
    'URL: another query string',
    false,
    ['web_fetch', { url: 'https://api.example.com/items?page=1' }],
    ['web_fetch', { url: 'https://api.example.com/items?page=2' }],
  ],
  [
    'WebFetch: another prompt',
    false,
    ['WebFetch', { url: 'https://example.com/a', prompt: 'list the endpoints' }],
    ['WebFetch', { url: 'https://example.com/a', prompt: 'summarize the auth section' }],
  ],
  // MCP and custom tools: canonical JSON of every argument.
  [
    'MCP github__get_issue: same issue, keys reordered',
    true,
    ['github__get_issue', { owner: 'acme', repo: 'app', issue_number: 27 }],
    ['github__get_issue', { issue_number: 27, repo: 'app', owner: 'acme' }],
  ],
  [
    'MCP github__get_issue: another issue',
    false,
    ['github__get_issue', { owner: 'acme', repo: 'app', issue_number: 27 }],
    ['github__get_issue', { owner: 'acme', repo: 'app', issue_number: 28 }],
  ],
  [
    'custom tool: a description argument is kept',
    false,
    ['linear__search', { query: 'bug', description: 'open' }],
    ['linear__search', { query: 'bug', description: 'closed' }],
  ],
  ['custom read_doc: two paths', false, ['read_doc', { path: 'a.md' }], ['read_doc', { path: 'b.md' }]],
  [
    'custom read_doc: same path',
    true,
    ['read_doc', { path: 'docs/a.md' }],
    ['read_doc', { path: './docs/a.md' }],
  ],
  // Writes never supersede, even with identical arguments.
  [
    'edit twice with the same arguments',
    false,
    ['edit', { path: 'src/a.ts', patch: 'x' }],
    ['edit', { path: 'src/a.ts', patch: 'x' }],
  ],
];

let n = 0;
function keyOf([name, args]: [string, Args]): string {
  const c: ToolCall = call(`call_${++n}`, name, args);
  return commandKeys(c).supersede;
}

describe('supersession: the identical invocation only (labelled pairs)', () => {
  it('has at least 40 pairs, both labels represented', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
    expect(ROWS.filter((r) => r[1]).length).toBeGreaterThanOrEqual(15);
    expect(ROWS.filter((r) => !r[1]).length).toBeGreaterThanOrEqual(15);
  });

  it.each(ROWS)('%s: same = %s', (_label, same, a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    if (same) expect(kb).toBe(ka);
    else expect(kb).not.toBe(ka);
  });

  it('keeps the family as before: kubectl -n web and -n db share one', () => {
    const f = (cmd: string): string => commandKeys(call('x', 'bash', { command: cmd })).family;
    expect(f('kubectl get pods -n web')).toBe('bash:kubectl get');
    expect(f('kubectl get pods -n db')).toBe('bash:kubectl get');
    expect(f('cd packages/app && npm test')).toBe('bash:npm test');
  });
});

describe('supersession in a stabilized transcript', () => {
  it('keeps the kubectl -n web result after kubectl -n db ran; the same -n web run again supersedes it', () => {
    const tr = t(
      user('u', 'why is the web deployment failing?'),
      calls('a1', [bash('c1', 'kubectl get pods -n web')]),
      result('r1', 'c1', 'NAME READY STATUS\nweb-7f9 0/1 CrashLoopBackOff'),
      calls('a2', [bash('c2', 'kubectl get pods -n db')]),
      result('r2', 'c2', 'NAME READY STATUS\ndb-0 1/1 Running'),
      calls('a3', [bash('c3', "psql -c 'select count(*) from users'")]),
      result('r3', 'c3', 'count\n-----\n1200'),
      calls('a4', [bash('c4', "psql -c 'select count(*) from orders'")]),
      result('r4', 'c4', 'count\n-----\n88'),
      user('u2', 'and now?'),
    );
    const P = policy({ budget: 1000, keep_recent: 0 });
    const r = run(tr, P);
    expect(ids(r)).toEqual(['u', 'a1', 'r1', 'a2', 'r2', 'a3', 'r3', 'a4', 'r4', 'u2']);
    expect(entry(r, 'r1').reason).not.toBe('superseded');
    expect(entry(r, 'r3').reason).not.toBe('superseded');

    // The identical invocation, spelled with other spacing and quotes, does supersede.
    const again = t(
      ...tr.artifacts.slice(0, 9),
      calls('a5', [bash('c5', "kubectl  get pods -n 'web'")]),
      result('r5', 'c5', 'NAME READY STATUS\nweb-8a1 1/1 Running'),
      user('u2', 'and now?'),
    );
    // One token over the budget, so that the stabilizer has to cut (it cuts only under pressure).
    const r2 = run(again, policy({ budget: run(again, P).budget.used - 1, keep_recent: 0 }));
    expect(fate(r2, 'r1')).toBe('dropped/superseded');
    expect(entry(r2, 'r1').detail).toContain('(r5)');
    expect(ids(r2)).toContain('r2');
  });
});
