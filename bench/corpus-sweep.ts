// The corpus sweep: every recording of a corpus folder (default ../shared/corpus) stabilized at
// several budgets for each emit target, with the checks `stabilize --emit` runs. Prints, per
// budget and target, how many runs are not ok and the violations per check and per provider rule,
// and per file the checks that fail. This is what the stabilizer is measured against: each count
// should go down, and a run the checks call ok must be one whose request the API accepts.
//   node --import tsx bench/corpus-sweep.ts [--corpus DIR] [--budgets 500,1000,...] [--files] [--tables]
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { emitContext } from '../src/core/emit/index.js';
import type { AnthropicRequest } from '../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../src/core/emit/verify.js';
import { policyFromObject } from '../src/core/policy/index.js';
import { readTranscript } from '../src/core/readers/index.js';
import { stabilizeTranscript } from '../src/core/stabilize/stabilize.js';
import { validateResult } from '../src/core/validate/validate.js';
import type { CheckResult } from '../src/core/validate/types.js';
import { loadTokenizer } from '../src/tokens/load.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: '../shared/corpus' },
    budgets: { type: 'string', default: '500,1000,2000,4000,8000,20000' },
    files: { type: 'boolean', default: false },
    // Print STABILIZE_OUTCOMES and EMIT_OUTCOMES of test/e2e/corpus-expectations.ts as they are now.
    tables: { type: 'boolean', default: false },
  },
});
const TARGETS = ['openai', 'anthropic'] as const;

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // Licence texts and the corpus README are not recordings; aider histories are Markdown.
    if (e.isDirectory()) out.push(...(e.name === 'licenses' ? [] : await walk(p)));
    else if (/\.(json|jsonl|traj|md)$/.test(e.name) && e.name !== 'README.md' && e.name !== 'SOURCES.json')
      out.push(p);
  }
  return out.sort();
}

function count(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function cells(map: Map<string, number>): string {
  return (
    [...map]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || '-'
  );
}

async function main(): Promise<void> {
  const corpus = path.resolve(values.corpus);
  const budgets = values.budgets.split(',').map(Number);
  const tokenizer = await loadTokenizer('o200k_base');
  const files = await walk(corpus);
  const transcripts = [];
  let unreadable = 0;
  for (const file of files) {
    const rel = path.relative(corpus, file);
    const read = readTranscript((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''), { file: rel });
    if (read.ok) transcripts.push(read.transcript);
    else unreadable++;
  }
  console.log(
    `${corpus}: ${files.length} files, ${transcripts.length} read, ${unreadable} refused (no reader)`,
  );
  console.log(
    '| budget | target | runs | ok / warning / escalated | not ok | red but not escalated | violations by check | provider rules | verifier disagrees |',
  );
  console.log('|---:|---|---:|---|---:|---:|---|---|---:|');
  const perFile = new Map<string, Set<string>>();
  for (const budget of budgets) {
    const parsed = policyFromObject({ budget }, { file: 'sweep' });
    if (!parsed.ok) throw new Error('invalid sweep policy');
    for (const target of TARGETS) {
      const byCheck = new Map<string, number>();
      const byRule = new Map<string, number>();
      let notOk = 0;
      let disagree = 0;
      // A failing error check on a run the stabilizer called ok or warning: issue 10 wants none.
      let redNotEscalated = 0;
      const statuses = { ok: 0, warning: 0, escalated: 0 };
      for (const t of transcripts) {
        const result = stabilizeTranscript(t, { policy: parsed.policy, tokenizer });
        const checks = validateResult(t, result, { policy: parsed.policy, tokenizer, emit: target });
        const failing = checks.filter((c) => !c.ok && c.severity === 'error');
        if (failing.length > 0) notOk++;
        statuses[result.status]++;
        if (failing.length > 0 && result.status !== 'escalated') redNotEscalated++;
        for (const c of failing) {
          count(byCheck, c.name, c.violations.length);
          const seen = perFile.get(t.file) ?? new Set<string>();
          seen.add(c.name);
          perFile.set(t.file, seen);
        }
        const provider = checks.find((c) => c.name === 'provider');
        for (const v of provider?.violations ?? []) {
          const rule = /rule (\S+):/.exec(v.message)?.[1] ?? 'unknown';
          count(byRule, rule);
        }
        // A green that lies: the verifier finds what the provider check did not.
        const body = emitContext(result.context, target);
        const found =
          target === 'openai'
            ? verifyOpenAI((body as { messages: OpenAIMessage[] }).messages)
            : verifyAnthropic(body as AnthropicRequest);
        if (found.length > 0 !== !(provider?.ok ?? true)) disagree++;
      }
      console.log(
        `| ${budget} | ${target} | ${transcripts.length} | ${statuses.ok} / ${statuses.warning} / ${statuses.escalated} | ${notOk} | ${redNotEscalated} | ${cells(byCheck)} | ${cells(byRule)} | ${disagree} |`,
      );
    }
  }
  if (values.files) {
    console.log('\nfailing checks per file (any budget or target):');
    for (const [file, names] of [...perFile].sort())
      console.log(`  ${file}: ${[...names].sort().join(', ')}`);
  }
}

/** `task provider[rule-a,rule-b]`, sorted: the notation of test/e2e/corpus-expectations.ts. */
function outcome(checks: readonly CheckResult[]): string {
  const parts = checks
    .filter((c) => !c.ok && c.severity === 'error')
    .map((c) =>
      c.name === 'provider'
        ? `provider[${[...new Set(c.violations.map((v) => /rule (\S+):/.exec(v.message)?.[1] ?? '?'))].sort().join(',')}]`
        : c.name,
    );
  return parts.sort().join(' ') || '-';
}

/** `500-1000: a | 2000-20000: -`: equal neighbours merged. */
function ranges(budgets: readonly number[], values: readonly string[]): string {
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i <= values.length; i++) {
    if (i < values.length && values[i] === values[from]) continue;
    const span = i - 1 === from ? `${budgets[from]}` : `${budgets[from]}-${budgets[i - 1]}`;
    out.push(`${span}: ${values[from]}`);
    from = i;
  }
  return out.join(' | ');
}

async function tables(): Promise<void> {
  const corpus = path.resolve(values.corpus);
  const budgets = [500, 1000, 2000, 4000, 8000, 12000, 20000];
  const tokenizer = await loadTokenizer('o200k_base');
  const policyOf = (budget?: number) => {
    const parsed = policyFromObject(budget === undefined ? {} : { budget }, { file: 'sweep' });
    if (!parsed.ok) throw new Error('invalid sweep policy');
    return parsed.policy;
  };
  const stabilizeRows: string[] = [];
  const emitRows: string[] = [];
  for (const file of await walk(corpus)) {
    const rel = path.relative(corpus, file);
    const read = readTranscript((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''), { file: rel });
    if (!read.ok) continue;
    const t = read.transcript;
    const def = policyOf();
    const r = stabilizeTranscript(t, { policy: def, tokenizer });
    const o = outcome(validateResult(t, r, { policy: def, tokenizer }));
    stabilizeRows.push(`  '${rel}': '${r.status}${o === '-' ? '' : `; failing: ${o}`}',`);
    const cells = TARGETS.map((target) => {
      const outs = budgets.map((budget) => {
        const p = policyOf(budget);
        const result = stabilizeTranscript(t, { policy: p, tokenizer });
        return outcome(validateResult(t, result, { policy: p, tokenizer, emit: target }));
      });
      return `    ${target}: '${ranges(budgets, outs)}',`;
    });
    emitRows.push(`  '${rel}': {`, ...cells, '  },');
  }
  console.log(
    `export const STABILIZE_OUTCOMES: Readonly<Record<string, string>> = {\n${stabilizeRows.join('\n')}\n};\n`,
  );
  console.log(
    `export const EMIT_OUTCOMES: Readonly<Record<string, Record<EmitTarget, string>>> = {\n${emitRows.join('\n')}\n};`,
  );
}

await (values.tables ? tables() : main());
