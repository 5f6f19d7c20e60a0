import fc from 'fast-check';
import { caseArb } from './support/transcript-arb.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
const samples = fc.sample(fc.tuple(caseArb, policyArb), { numRuns: 3000, seed: 7 });
const st: Record<string, number> = {};
const inc = (k: string) => (st[k] = (st[k] ?? 0) + 1);
for (const [c, policy] of samples) {
  const r = stabilize(c.transcript, policy);
  inc(`status:${r.status}`);
  const ids = new Set(r.context.map((i) => i.id));
  for (const s of r.summaries) {
    inc(`summary:${s.status}`);
    if (s.status === 'valid' && ids.has(s.id)) {
      inc('summary kept');
      if (s.provenance.some((p) => !ids.has(p))) inc('summary kept, a source dropped');
    }
  }
  if (c.transcript.artifacts.some((a) => a.kind === 'phase')) inc('has phase');
  if (r.context.some((i) => i.kind === 'phase')) inc('phase kept');
  for (const e of r.ledger) if (e.action !== 'kept' && e.action !== 'masked') inc(`${e.action}:${e.reason}`);
}
console.log(st);
