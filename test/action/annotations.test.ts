import { describe, expect, it, vi } from 'vitest';
import type { CheckReport, TranscriptOutcome } from '../../src/core/golden/check-report.js';
import type { GoldenDiff } from '../../src/core/golden/diff.js';
import { collectAnnotations, emitAnnotations, selectAnnotations } from '../../src/github/annotations.js';
import type { Annotation, AnnotationSink } from '../../src/github/annotations.js';
import { checkReport, outcome } from '../core/golden/support.js';

function drift(fates: { id: string; line: number }[], extra: Partial<GoldenDiff> = {}): GoldenDiff {
  return {
    equal: false,
    causes: ['policy changed'],
    metadata: ['policy changed'],
    first: fates[0] ? { id: fates[0].id, line: fates[0].line } : null,
    status: null,
    tokens: { before: 30, after: 10, delta: -20 },
    fates: fates.map((f) => ({
      ...f,
      before: { action: 'kept', reason: 'in_budget', tokens: 10 },
      after: { action: 'dropped', reason: 'budget', tokens: 0 },
    })),
    contentChanged: [],
    checks: [],
    ...extra,
  };
}

function violation(check: string, severity: string, id: string, line: number) {
  return { check, severity, id, line, message: `${check} violation at ${id}` };
}

function report(transcripts: TranscriptOutcome[], opts: Parameters<typeof checkReport>[1] = {}): CheckReport {
  return checkReport(transcripts, opts);
}

describe('collectAnnotations', () => {
  it('maps each finding to its level, file, line and a title naming the check', () => {
    const all = collectAnnotations(
      report(
        [
          outcome('t/a.jsonl', 'violations', {
            violations: [violation('pii', 'error', 'm4', 7), violation('order', 'warning', 'm5', 9)],
          }),
          outcome('t/b.jsonl', 'drift', { diff: drift([{ id: 'm2', line: 2 }]) }),
          outcome('t/c.jsonl', 'new'),
        ],
        {
          goldenFiles: [
            'golden/t/a.jsonl.golden.json',
            'golden/t/b.jsonl.golden.json',
            'golden/t/gone.json.golden.json',
          ],
          ci: true,
        },
      ),
    );
    expect(all.map(({ level, check, file, line, title }) => ({ level, check, file, line, title }))).toEqual([
      { level: 'error', check: 'pii', file: 't/a.jsonl', line: 7, title: 'context-stability pii: m4' },
      { level: 'error', check: 'drift', file: 't/b.jsonl', line: 2, title: 'context-stability drift: m2' },
      { level: 'warning', check: 'order', file: 't/a.jsonl', line: 9, title: 'context-stability order: m5' },
      {
        level: 'warning',
        check: 'obsolete',
        file: 'golden/t/gone.json.golden.json',
        line: undefined,
        title: 'context-stability obsolete: golden without transcript',
      },
      {
        level: 'notice',
        check: 'new',
        file: 't/c.jsonl',
        line: undefined,
        title: 'context-stability new: missing golden',
      },
    ]);
    const driftMessage = all.find((a) => a.check === 'drift')?.message;
    expect(driftMessage).toBe(
      'First change: m2 (line 2): kept (in_budget, 10 tokens) → dropped (budget, 0 tokens). Artifacts: 1 changed fate. ' +
        'Tokens 30 → 10. Cause: policy changed. ' +
        'If the change is intended, accept it: npx context-stability update t/b.jsonl',
    );
  });

  it('annotates an unreadable transcript at the diagnostic position, and a drift without fate changes once', () => {
    const all = collectAnnotations(
      report([
        outcome('t/bad.json', 'error', {
          diagnostics: [
            {
              severity: 'error',
              code: 'json-syntax',
              file: 't/bad.json',
              line: 4,
              column: 12,
              message: 'Unexpected end.',
              hint: 'Fix it.',
            },
          ],
        }),
        outcome('t/b.jsonl', 'drift', { diff: drift([]) }),
      ]),
    );
    expect(all[0]).toEqual({
      level: 'error',
      check: 'input',
      file: 't/bad.json',
      line: 4,
      col: 12,
      title: 'context-stability input: json-syntax',
      message: 'Unexpected end. Fix it.',
    });
    const drifts = all.filter((a) => a.check === 'drift');
    expect(drifts).toHaveLength(1);
    expect(drifts[0]).toMatchObject({ file: 't/b.jsonl', line: 1, title: 'context-stability drift' });
    expect(drifts[0]?.message).toBe(
      'Tokens 30 → 10. Cause: policy changed. If the change is intended, accept it: npx context-stability update t/b.jsonl',
    );
  });

  it('orders by severity, then check importance, then file and line', () => {
    const all = collectAnnotations(
      report([
        outcome('t/z.jsonl', 'drift', { diff: drift([{ id: 'd1', line: 1 }]) }),
        outcome('t/b.jsonl', 'violations', {
          violations: [
            violation('budget', 'error', '*', 1),
            violation('pii', 'error', 'm9', 30),
            violation('pii', 'error', 'm1', 3),
          ],
        }),
        outcome('t/a.jsonl', 'violations', { violations: [violation('pii', 'error', 'm2', 50)] }),
      ]),
    );
    expect(all.map((a) => `${a.check} ${a.file}:${a.line}`)).toEqual([
      'pii t/a.jsonl:50',
      'pii t/b.jsonl:3',
      'pii t/b.jsonl:30',
      'budget t/b.jsonl:1',
      'drift t/z.jsonl:1',
    ]);
  });
});

describe('collectAnnotations: one drift annotation per transcript', () => {
  it('gives a drift of 12 artifacts exactly one annotation, at the first changed artifact', () => {
    const fates = Array.from({ length: 12 }, (_, i) => ({ id: `m${i + 1}`, line: 40 - i }));
    // diffGoldens sorts the fate changes by line: the first is the lowest line.
    const sorted = [...fates].sort((a, b) => a.line - b.line);
    const all = collectAnnotations(report([outcome('t/big.jsonl', 'drift', { diff: drift(sorted) })]));
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      level: 'error',
      check: 'drift',
      file: 't/big.jsonl',
      line: 29,
      title: 'context-stability drift: m12',
    });
    expect(all[0]?.message).toMatch(/^First change: m12 \(line 29\): .* Artifacts: 12 changed fate\. /);
  });

  it('annotates nothing for a pass whose golden differs only in metadata', () => {
    const all = collectAnnotations(
      report([
        outcome('t/a.jsonl', 'pass', { notes: ['policy changed, budget limit; this context is unchanged'] }),
        outcome('t/b.jsonl', 'pass', {
          notes: ['tokenizer changed: gpt-tokenizer 4.0.0 → 4.1.0, token counts'],
        }),
      ]),
    );
    expect(all).toEqual([]);
  });

  it('annotates a PII violation first, and GitHub shows it, with 12 drifts in the same run', () => {
    const drifts = Array.from({ length: 12 }, (_, i) =>
      outcome(`t/d${String(i).padStart(2, '0')}.jsonl`, 'drift', { diff: drift([{ id: 'm2', line: 2 }]) }),
    );
    const leak = outcome('z/leak.jsonl', 'violations', { violations: [violation('pii', 'error', 'm9', 9)] });
    const all = collectAnnotations(report([...drifts, leak]));
    expect(all).toHaveLength(13);
    expect(all[0]).toMatchObject({ check: 'pii', file: 'z/leak.jsonl', line: 9 });
    const { shown, hidden } = selectAnnotations(all);
    expect(shown[0]).toMatchObject({ check: 'pii', file: 'z/leak.jsonl' });
    expect(shown.filter((a) => a.check === 'drift')).toHaveLength(9);
    expect(hidden).toEqual({ error: 3, warning: 0, notice: 0 });
  });

  it('names the policy in the accept command when it is not the conventional one', () => {
    const r = { ...report([outcome('t/a.jsonl', 'drift', { diff: drift([{ id: 'm2', line: 2 }]) })]) };
    r.policy = { source: 'ci/policy.yml', hash: '0123456789abcdef' };
    expect(collectAnnotations(r)[0]?.message).toMatch(
      /accept it: npx context-stability update t\/a\.jsonl --policy ci\/policy\.yml$/,
    );
  });
});

function many(level: Annotation['level'], n: number): Annotation[] {
  return Array.from({ length: n }, (_, i) => ({
    level,
    check: 'pii',
    file: `t/${String(i).padStart(2, '0')}.jsonl`,
    line: 1,
    title: 't',
    message: 'm',
  }));
}

describe('selectAnnotations', () => {
  it('keeps the first 10 of each level and counts the rest', () => {
    const { shown, hidden } = selectAnnotations([
      ...many('notice', 3),
      ...many('error', 14),
      ...many('warning', 11),
    ]);
    expect(shown.filter((a) => a.level === 'error').map((a) => a.file)).toEqual(
      many('error', 10).map((a) => a.file),
    );
    expect(shown.filter((a) => a.level === 'warning')).toHaveLength(10);
    expect(shown.filter((a) => a.level === 'notice')).toHaveLength(3);
    expect(hidden).toEqual({ error: 4, warning: 1, notice: 0 });
  });

  it('leaves room for the annotations the caller emits itself', () => {
    const { shown, hidden } = selectAnnotations(many('error', 12), { error: 9, notice: 0 });
    expect(shown).toHaveLength(9);
    expect(hidden.error).toBe(3);
  });
});

describe('emitAnnotations', () => {
  it('passes file, line, column and title to the command functions', () => {
    const sink = { error: vi.fn(), warning: vi.fn(), notice: vi.fn() };
    emitAnnotations(
      [
        { level: 'error', check: 'pii', file: 't/a.jsonl', line: 7, col: 3, title: 'T', message: 'M' },
        { level: 'notice', check: 'new', file: 't/b.jsonl', line: 0, title: 'N', message: 'no line' },
      ],
      sink as unknown as AnnotationSink,
    );
    expect(sink.error).toHaveBeenCalledWith('M', {
      title: 'T',
      file: 't/a.jsonl',
      startLine: 7,
      startColumn: 3,
    });
    expect(sink.notice).toHaveBeenCalledWith('no line', { title: 'N', file: 't/b.jsonl' });
    expect(sink.warning).not.toHaveBeenCalled();
  });

  it('annotates a session FILE#N of a multi-session file at FILE, naming the session in the title', () => {
    const sink = { error: vi.fn(), warning: vi.fn(), notice: vi.fn() };
    emitAnnotations(
      [{ level: 'error', check: 'task', file: 't/history.md#2', line: 9, col: 6, title: 'T', message: 'M' }],
      sink as unknown as AnnotationSink,
    );
    expect(sink.error).toHaveBeenCalledWith('M', {
      title: 'session 2: T',
      file: 't/history.md',
      startLine: 9,
      startColumn: 6,
    });
  });

  it('escapes through @actions/core: an injected id stays one line of command data', () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      emitAnnotations([
        {
          level: 'warning',
          check: 'pii',
          file: 't/a,b:c.jsonl',
          line: 2,
          title: 'context-stability pii: x\n::set-output name=a::b',
          message: '100% sure\n::add-mask::v',
        },
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toBe(
      '::warning title=context-stability pii%3A x%0A%3A%3Aset-output name=a%3A%3Ab,file=t/a%2Cb%3Ac.jsonl,line=2::' +
        '100%25 sure%0A::add-mask::v\n',
    );
  });
});
