// Stage 8 (protect): what may never be dropped, and why (`protected_by` in the ledger).
import { describe, expect, it } from 'vitest';
import { asst, bash, call, calls, pol, result, sys, task, t, user, words } from '../../support/artifacts.js';
import { entry, fate, ids, policy, pressed, run } from './helpers.js';

describe('protect: kinds, pins and tags', () => {
  it('keeps system, policy, task and pinned artifacts when the budget drops everything else', () => {
    const tr = t(
      sys('s', 'You are a coding agent.'),
      pol('p', 'Never push to main.'),
      task('tk', 'Fix the failing build.'),
      user('pinned', 'My repo is at ~/work/app', { pin: true }),
      user('u1', words(30)),
      asst('a1', words(30)),
      user('u2', 'go on'),
    );
    // 5 + 4 + 4 + 5 protected words, the latest request u2 (2), then a1 (30): 50 fit a budget of 50.
    const r = run(tr, policy({ budget: 50, keep_recent: 1 }));
    expect(ids(r)).toEqual(['s', 'p', 'tk', 'pinned', 'a1', 'u2']);
    expect(entry(r, 's').protected_by).toEqual(['system']);
    expect(entry(r, 'p').protected_by).toEqual(['policy']);
    expect(entry(r, 'tk').protected_by).toEqual(['task']);
    expect(entry(r, 'pinned').protected_by).toEqual(['pinned']);
    expect(fate(r, 'u1')).toBe('dropped/budget');
    expect(r.status).toBe('ok');
  });

  it('protects artifacts tagged with a protected_message_kinds entry, and only those', () => {
    const tr = t(
      asst('dec', 'We use Postgres 16.', { tags: ['decision'] }),
      asst('note', 'Maybe look at caching.', { tags: ['note'] }),
      user('u', 'ok'),
      asst('a', 'fine'),
    );
    // Protection ranks are what this tests: re-decided newest first (stable_prefix off), protected
    // evidence is placed before the conversation. With the stable cut it leaves with its step.
    const ranked = { stable_prefix: { enabled: false } };
    const r = run(tr, policy({ budget: 6, keep_recent: 1, ...ranked }));
    expect(entry(r, 'dec').protected_by).toEqual(['tag:decision']);
    expect(fate(r, 'note')).toBe('dropped/budget');

    const custom = run(
      tr,
      policy({ budget: 6, keep_recent: 1, resilience: { protected_message_kinds: ['note'] }, ...ranked }),
    );
    expect(entry(custom, 'note').protected_by).toEqual(['tag:note']);
    expect(fate(custom, 'dec')).toBe('dropped/budget');
  });

  it('protects no tag and no command family when resilience is disabled', () => {
    const tr = t(
      asst('dec', 'We use Postgres 16.', { tags: ['decision'] }),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', 'all tests pass'),
      user('u', 'ok'),
    );
    const r = run(tr, policy({ budget: 1, keep_recent: 0, resilience: { enabled: false } }));
    // Only what the model must always see stays protected: the task statement and latest request.
    expect(r.ledger.filter((e) => e.protected_by).map((e) => [e.id, e.protected_by])).toEqual([
      ['u', ['task_statement', 'latest_request']],
    ]);
  });
});

describe('protect: keep_recent', () => {
  it('keeps the user message and the latest answer of each of the N newest turns', () => {
    const tr = t(
      user('u1', words(5)),
      asst('a1', words(5)),
      user('u2', words(5)),
      asst('a2', 'Let me look.'),
      calls('a3', [call('c1', 'search', { q: 'x' })]),
      result('r1', 'c1', words(5)),
      asst('a4', words(5)),
      user('u3', words(5)),
      calls('a5', [call('c2', 'search', { q: 'y' })]),
      result('r2', 'c2', words(5)),
    );
    const recent = (n: number): string[] =>
      run(tr, policy({ keep_recent: n, budget: 1000 }))
        .ledger.filter((e) => e.protected_by?.includes('recent'))
        .map((e) => e.id);
    // A turn starts at a user message; a tool-call-only step is not an answer and is not counted.
    expect(recent(1)).toEqual(['u3']);
    expect(recent(2)).toEqual(['u2', 'a4', 'u3']);
    expect(recent(3)).toEqual(['u1', 'a1', 'u2', 'a4', 'u3']);
  });

  it('keeps the latest user request in a long tool loop, whatever keep_recent counts', () => {
    const steps = Array.from({ length: 20 }, (_, i) => [
      calls(`c${i}`, [call(`k${i}`, 'bash', { command: `step ${i}` })]),
      result(`r${i}`, `k${i}`, words(5)),
    ]).flat();
    const tr = t(user('task', 'fix the build'), asst('a', 'On it.'), user('ask', 'also run lint'), ...steps);
    const r = run(tr, policy({ keep_recent: 1, budget: 1000 }));
    expect(entry(r, 'ask').protected_by).toEqual(['recent', 'latest_request']);
    expect(r.ledger.filter((e) => e.protected_by?.includes('recent')).map((e) => e.id)).toEqual(['ask']);
  });

  it('protects no message as recent with keep_recent 0', () => {
    const tr = t(user('u1', 'hello there'), asst('a1', 'hi'), asst('a2', 'ok'));
    // u1 is the task and the latest request (2 tokens); of the rest only the newest (1) fits.
    const r = run(tr, policy({ keep_recent: 0, budget: 3 }));
    expect(ids(r)).toEqual(['u1', 'a2']);
    expect(r.ledger.map((e) => `${e.id}:${e.reason}`)).toEqual(['u1:protected', 'a1:budget', 'a2:in_budget']);
    expect(r.ledger.some((e) => e.protected_by?.includes('recent'))).toBe(false);
    expect(r.status).toBe('ok');
  });
});

describe('protect: latest invocation and outcome of every command family', () => {
  function session() {
    return t(
      user('u', 'make the build green'),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', '3 tests pass'),
      calls('a2', [bash('c2', 'npm run build')]),
      result('r2', 'c2', 'build ok'),
      calls('a3', [bash('c3', 'cd packages/app && npm test')]),
      result('r3', 'c3', 'all tests pass'),
      asst('done', 'Build and tests are green.'),
      user('u2', 'thanks'),
    );
  }

  it('keeps the latest result of each family and the call that produced it', () => {
    const r = run(session(), policy({ budget: 1000 }));
    expect(entry(r, 'r2').protected_by).toEqual(['latest:bash:npm run build']);
    expect(entry(r, 'a2').protected_by).toEqual(['latest:bash:npm run build', 'pair:r2']);
    // `cd packages/app && npm test` is the same family as `npm test`: it is now the latest one…
    expect(entry(r, 'r3').protected_by).toEqual(['latest:bash:npm test']);
    // …but not the same invocation (another working directory): the earlier `npm test` result is
    // not stale, and stays as a result of the protected tool bash (DESIGN §4 stage 6).
    expect(fate(r, 'r1')).toBe('kept/protected');
    expect(entry(r, 'r1').protected_by).toEqual(['tool:bash']);
    expect(entry(r, 'a1').protected_by).toEqual(['pair:r1']);
  });

  it('keeps the latest outcomes even when the budget drops the conversation around them', () => {
    // Protected: the task statement u (4), a2 (4) + r2 (2) + a3 (6) + r3 (3), the latest request u2
    // (1) = 20; then done (5) fills the budget of 25. The first npm test run (in another directory,
    // so not superseded) is older evidence of the protected tool bash: it gives way to the budget.
    const r = run(session(), policy({ budget: 25, keep_recent: 0 }));
    expect(ids(r)).toEqual(['u', 'a2', 'r2', 'a3', 'r3', 'done', 'u2']);
    expect(entry(r, 'r1').action).toBe('dropped');
    expect(entry(r, 'r1').reason).not.toBe('superseded');
  });

  it('keeps every result of a protected tool that no later result supersedes', () => {
    // Two different patches share the family `apply_patch` but neither makes the other stale.
    const tr = t(
      user('u', 'apply both fixes'),
      calls('a1', [call('c1', 'apply_patch', { input: 'patch for the parser' })]),
      result('r1', 'c1', 'patch applied'),
      calls('a2', [call('c2', 'apply_patch', { input: 'patch for the lexer' })]),
      result('r2', 'c2', 'patch applied'),
    );
    const r = run(tr, policy({ budget: 100, keep_recent: 0 }));
    expect(entry(r, 'r1').protected_by).toEqual(['tool:apply_patch']);
    expect(entry(r, 'a1').protected_by).toEqual(['pair:r1']);
    // r2 is also the open loop: the result the agent just asked for.
    expect(entry(r, 'r2').protected_by).toEqual(['latest:apply_patch', 'open_loop']);
    // A result of an unprotected tool with the same shape is not protected.
    const other = t(
      user('u', 'look both up'),
      calls('a1', [call('c1', 'get_order', { id: 1 })]),
      result('r1', 'c1', 'order 1'),
      calls('a2', [call('c2', 'get_order', { id: 2 })]),
      result('r2', 'c2', 'order 2'),
    );
    expect(entry(run(other, policy({ keep_recent: 0 })), 'r1').protected_by).toBeUndefined();
  });

  it('protects the call of a protected result (pair closure)', () => {
    const tr = t(
      user('u', 'try it'),
      calls('a1', [call('c1', 'deploy', { env: 'staging' })], 'Deploying.'),
      result('r1', 'c1', 'permission denied', { is_error: true, tags: ['error'] }),
      calls('a2', [call('c2', 'deploy', { env: 'prod' })]),
      result('r2', 'c2', 'ok'),
      user('u2', 'and now?'),
      asst('a3', 'Deployed.'),
    );
    const r = run(tr, policy({ budget: 1000, keep_recent: 1 }));
    expect(entry(r, 'r1').protected_by).toEqual(['tag:error']);
    expect(entry(r, 'a1').protected_by).toEqual(['pair:r1']);
  });
});

describe('protect: failures and the last success (seed 002)', () => {
  it('treats is_error and a non-zero exit code as the error kind in every format', () => {
    const tr = t(
      user('u', 'deploy and test'),
      calls('a1', [bash('c1', 'deploy staging')]),
      result('r1', 'c1', 'permission denied', { is_error: true }),
      calls('a2', [bash('c2', 'npm test')]),
      result('r2', 'c2', '2 failing', { exit_code: 1 }),
      calls('a3', [bash('c3', 'npm test')]),
      result('r3', 'c3', '1 failing', { exit_code: 1 }),
      user('u2', 'and?'),
    );
    const r = run(tr, policy({ budget: 1000, keep_recent: 1 }));
    expect(entry(r, 'r1').protected_by).toEqual(['tag:error', 'latest:bash:deploy staging']);
    // A failure is evidence (seed 002): a later run of the same command does not make it stale…
    expect(entry(r, 'r2').protected_by).toEqual(['tag:error']);
    expect(entry(r, 'r3').protected_by).toEqual(['tag:error', 'latest:bash:npm test']);
    // …unless `error` is not a protected kind; then only the latest outcome stays.
    const off = run(
      tr,
      policy({ budget: 1000, keep_recent: 1, resilience: { protected_message_kinds: [] } }),
    );
    expect(entry(off, 'r1').protected_by).toEqual(['latest:bash:deploy staging']);
    // Supersession is a cleanup under pressure: it acts once the history is over the budget.
    const offPressed = run(tr, pressed(tr, { keep_recent: 1, resilience: { protected_message_kinds: [] } }));
    expect(fate(offPressed, 'r2')).toBe('dropped/superseded');
  });

  it('keeps the latest successful outcome of a command whose latest run failed', () => {
    const tr = t(
      user('u', 'keep the tests green'),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', 'Tests: 12 passed'),
      calls('a2', [bash('c2', 'npm test')]),
      result('r2', 'c2', 'Tests: 13 passed'),
      calls('a3', [bash('c3', 'npm test')]),
      result('r3', 'c3', 'Tests: 1 failed, 12 passed', { exit_code: 1 }),
      user('u2', 'what broke?'),
    );
    const r = run(tr, policy({ budget: 1000, keep_recent: 1 }));
    expect(entry(r, 'r2').protected_by).toEqual(['latest_success:bash:npm test']);
    expect(entry(r, 'a2').protected_by).toEqual(['pair:r2']);
    // Supersession is a cleanup under pressure: nothing is dropped while the history fits…
    expect(fate(r, 'r1')).toBe('kept/in_budget');
    // …and one token over the budget the older success is stale.
    expect(fate(run(tr, pressed(tr, { keep_recent: 1 })), 'r1')).toBe('dropped/superseded');
    // Once the command passes again, the older success is stale like any other.
    const greenTr = t(
      ...tr.artifacts.slice(0, 7),
      calls('a4', [bash('c4', 'npm test')]),
      result('r4', 'c4', 'Tests: 13 passed'),
      user('u2', 'ok'),
    );
    const green = run(greenTr, pressed(greenTr, { keep_recent: 1 }));
    expect(fate(green, 'r2')).toBe('dropped/superseded');
    expect(entry(green, 'r4').protected_by).toEqual(['latest:bash:npm test']);
  });
});

describe('protect: what a read returns is not a command outcome', () => {
  function session() {
    return t(
      user('u', 'fix the parser'),
      calls('a1', [call('c1', 'read', { path: 'src/parser.ts' })]),
      result('r1', 'c1', words(40, 'src')),
      calls('a2', [call('c2', 'read', { path: 'src/missing.ts' })]),
      result('r2', 'c2', 'ENOENT: no such file', { is_error: true }),
      calls('a3', [bash('c3', 'npm test')]),
      result('r3', 'c3', 'all tests pass'),
      user('u2', 'thanks'),
    );
  }

  it('leaves a successful read unprotected (read is in protected_tools), protects a failed one', () => {
    const r = run(session(), policy({ budget: 1000, keep_recent: 0 }));
    expect(entry(r, 'r1').protected_by).toBeUndefined();
    expect(entry(r, 'r2').protected_by).toEqual(expect.arrayContaining(['latest:read:src/missing.ts']));
    expect(entry(r, 'r3').protected_by).toEqual(expect.arrayContaining(['latest:bash:npm test']));
  });

  it('lets a file read compete on budget: it goes when it does not fit, the outcomes stay', () => {
    const r = run(session(), policy({ budget: 30, keep_recent: 0 }));
    expect(fate(r, 'r1')).toBe('dropped/budget');
    expect(ids(r)).toEqual(expect.arrayContaining(['r2', 'r3']));
    expect(r.status).toBe('ok');
  });
});
