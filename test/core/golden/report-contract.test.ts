// The report contract on its own: what it accepts (every report check writes, fields of a newer
// version kept), where it says a report breaks it, and that checking is linear in the report.
import { describe, expect, it } from 'vitest';
import { checkReportContract } from '../../../src/core/golden/report-contract.js';
import { parseJson } from '../../../src/core/json/parse.js';
import { reportText, richOutcome, shardReports } from '../../cli/merge-reports.js';

type Json = Record<string, unknown>;

describe('checkReportContract', () => {
  it('accepts a report with every optional part, and fields it does not know (kept as they are)', () => {
    const [report] = shardReports();
    const value = { ...report, added_later: { anything: [1, 'two'] } };
    const checked = checkReportContract(value);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect((checked.report as unknown as Json)['added_later']).toEqual({ anything: [1, 'two'] });
  });

  it('gives the path of the first bad value and what it should be', () => {
    const [report] = shardReports();
    const t = (report.transcripts[1] as unknown as Json)['picture'] as Json;
    (t['consumers'] as Json[])[0]!['percent'] = 12.5;
    expect(checkReportContract(report)).toEqual({
      ok: false,
      breach: { path: ['transcripts', 1, 'picture', 'consumers', 0, 'percent'], expected: 'a whole number from 0' },
    });
  });

  it('takes an optional field that is null for a bad value, not for an absent one', () => {
    const [report] = shardReports();
    (report.transcripts[0] as unknown as Json)['diff'] = null;
    const checked = checkReportContract(report);
    expect(checked.ok ? null : checked.breach.path).toEqual(['transcripts', 0, 'diff']);
  });

  it('reads only own fields: a `__proto__` key does not stand in for a missing one', () => {
    const [report] = shardReports();
    const text = reportText(report).replace('"ci": true,', '"__proto__": {"ci": true},');
    const parsed = parseJson(text, { file: 'r.json' });
    if (!parsed.ok) throw new Error('not JSON');
    const checked = checkReportContract(parsed.value);
    expect(checked.ok ? null : checked.breach).toEqual({ path: ['ci'], expected: 'present' });
  });

  it('is linear: checking a large report takes about as long as parsing it', () => {
    // Against parsing the same text in the same run (a quadratic walk would be hundreds of times over).
    const [report] = shardReports();
    report.transcripts = Array.from({ length: 300 }, (_, i) => richOutcome(`t/${i}.jsonl`));
    const text = reportText(report);
    const time = (f: () => unknown): number => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        f();
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    let value: unknown;
    const parse = time(() => {
      const parsed = parseJson(text, { file: 'r.json' });
      if (parsed.ok) value = parsed.value;
    });
    const check = time(() => expect(checkReportContract(value).ok).toBe(true));
    expect(check / parse).toBeLessThan(5);
  }, 60_000);
});
