// The retention check on the recorded corpus (issue 28), against a replay written here with its own
// code: its own model calls (before each main-chain assistant turn that makes tool calls), its own
// argument values, its own "held before" and "in the context" tests. Only the stabilizer (what is
// under test) and the PII detectors (which values are personal data, not facts) are shared.
// At budget 20,000 the corpus loses no fact; at 2,000 the check lists exactly the facts this finds.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyFromObject } from '../../src/core/policy/index.js';
import type { Policy } from '../../src/core/policy/index.js';
import { checkDetectors, detectorConfig } from '../../src/core/pii/registry.js';
import { pairToolResults } from '../../src/core/readers/pairing.js';
import { runRetention } from '../../src/core/retention/index.js';
import { replayRetention } from '../../src/core/retention/replay.js';
import { maskString } from '../../src/core/stabilize/finalize.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { Artifact, Transcript } from '../../src/core/types.js';
import { loadTranscripts } from '../../src/io/load-transcript.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { CORPUS, HAS_CORPUS, SUPPORTED, warnIfNoCorpus } from '../support/corpus.js';

warnIfNoCorpus('retention-corpus');

async function corpus(): Promise<{ file: string; t: Transcript }[]> {
  const out: { file: string; t: Transcript }[] = [];
  for (const rel of Object.keys(SUPPORTED)) {
    for (const { name, result } of await loadTranscripts(path.join(CORPUS, rel))) {
      if (result.ok) out.push({ file: `${rel}#${path.basename(name)}`, t: result.transcript });
    }
  }
  return out;
}

const main = (a: Artifact): boolean => a.sidechain !== true && a.offChain === undefined;

function textOf(a: Pick<Artifact, 'content' | 'tool_calls'>): string {
  const parts =
    typeof a.content === 'string'
      ? [a.content]
      : a.content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : JSON.stringify(p)));
  return [...parts, ...(a.tool_calls ?? []).map((c) => c.arguments)].join('\n');
}

const within = (text: string, v: string): boolean =>
  text.includes(v) || text.includes(JSON.stringify(v).slice(1, -1));

/** The spec's facts: JSON leaves (strings, numbers) of 4+ characters; shell commands word by word too. */
function values(name: string, args: string): Set<string> {
  const out = new Set<string>();
  const shell = /bash|shell|terminal|exec|command/i.test(name);
  const visit = (v: unknown, key?: string): void => {
    if (typeof v === 'string') {
      if (v.length >= 4) out.add(v);
      if (shell || (key !== undefined && /^(command|cmd|script|commands?)$/i.test(key)))
        for (const w of v.split(/\s+/)) if (w.length >= 4) out.add(w);
    } else if (typeof v === 'number' && Number.isFinite(v) && String(v).length >= 4) out.add(String(v));
    else if (Array.isArray(v)) v.forEach((x) => visit(x, key));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
  };
  let parsed: unknown = args;
  try {
    parsed = JSON.parse(args);
  } catch {
    // plain-text arguments: one string
  }
  visit(parsed);
  return out;
}

/** Every lost fact, as `call line|value|first line`, replaying every tool-calling model call. */
function independent(
  t: Transcript,
  policy: Policy,
  tokenizer: Parameters<typeof stabilizeTranscript>[1]['tokenizer'],
): string[] {
  const pii = {
    detectors: checkDetectors(detectorConfig(policy.pii, [])),
    replacement: policy.pii.replacement,
    allow: policy.pii.allow,
  };
  const lost: string[] = [];
  const arts = t.artifacts;
  for (let i = 0; i < arts.length; i++) {
    const next = arts[i] as Artifact;
    if (!main(next) || next.kind !== 'assistant' || !next.tool_calls?.length) continue;
    // The history the model saw: everything before this turn, back to the last main-chain
    // artifact that is not an assistant turn (the agent calls after a user message or results).
    let end = i - 1;
    while (end >= 0 && !main(arts[end] as Artifact)) end--;
    if (end < 0 || (arts[end] as Artifact).kind === 'assistant') continue;
    const history = arts.slice(0, end + 1);
    const held = history.filter((a) => main(a) && a.kind !== 'phase');
    const ht: Transcript = { ...t, artifacts: history, pairing: pairToolResults(history), diagnostics: [] };
    const context = stabilizeTranscript(ht, { policy, tokenizer }).context.map(textOf).join('\n\u0000\n');
    const seen = new Set<string>();
    for (const c of next.tool_calls) {
      for (const v of values(c.name, c.arguments)) {
        if (seen.has(v)) continue;
        seen.add(v);
        const first = held.find((a) => within(textOf(a), v));
        if (!first || maskString(v, pii, {}) !== v || within(context, v)) continue;
        lost.push(`${next.source.line}|${v.replace(/\s+/g, ' ').slice(0, 59)}|${first.source.line}`);
      }
    }
  }
  return lost.sort();
}

function policyAt(budget: number): Policy {
  const p = policyFromObject({ budget }, { file: 'retention-corpus' });
  if (!p.ok) throw new Error('policy');
  return p.policy;
}

describe.skipIf(!HAS_CORPUS)('retention on the recorded corpus', () => {
  it('at budget 20,000 no fact is lost; at 2,000 the check finds exactly what an independent replay finds', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    const sessions = await corpus();
    expect(sessions.length).toBeGreaterThan(15);
    const all = (budget: number) => {
      const policy = policyAt(budget);
      let facts = 0;
      const check: string[] = [];
      const own: string[] = [];
      for (const { file, t } of sessions) {
        const r = replayRetention(t, { policy, tokenizer, maxCalls: 1_000 });
        facts += r.summary.facts;
        check.push(...r.lost.map((f) => `${file}|${f.needed.line}|${f.value.slice(0, 59)}|${f.source.line}`));
        own.push(...independent(t, policy, tokenizer).map((x) => `${file}|${x}`));
      }
      return { facts, check: check.sort(), own: own.sort() };
    };
    const wide = all(20_000);
    expect(wide.facts).toBeGreaterThan(100);
    expect(wide.check).toEqual([]);
    expect(wide.own).toEqual([]);
    // The whole check (replay and the summary rule over the final context) finds nothing either.
    const policy = policyAt(20_000);
    const findings = sessions.flatMap(({ file, t }) => {
      const run = runRetention(t, stabilizeTranscript(t, { policy, tokenizer }), { policy, tokenizer });
      return (run?.check.violations ?? []).map((v) => `${file}:${v.line}: ${v.message}`);
    });
    expect(findings).toEqual([]);
    const tight = all(2_000);
    expect(tight.check.length).toBeGreaterThan(20);
    expect(tight.check).toEqual(tight.own);
  }, 120_000);
});
