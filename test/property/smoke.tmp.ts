import fc from 'fast-check';
import { caseArb } from './support/transcript-arb.js';
import { policyArb } from './support/policy-arb.js';
import { wordTokenizer } from './support/tokenizer.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
const samples = fc.sample(fc.tuple(caseArb, policyArb), { numRuns: 1000, seed: 1 });
const status: Record<string, number> = {};
const actions: Record<string, number> = {};
let ctx = 0,
  arts = 0;
const t0 = Date.now();
for (const [c, policy] of samples) {
  const r = stabilizeTranscript(c.transcript, { policy, tokenizer: wordTokenizer });
  status[r.status] = (status[r.status] ?? 0) + 1;
  for (const e of r.ledger) {
    const k = `${e.action}:${e.reason}`;
    actions[k] = (actions[k] ?? 0) + 1;
  }
  ctx += r.context.length;
  arts += c.transcript.artifacts.length;
}
console.log(Date.now() - t0, 'ms', status, ctx / 1000, arts / 1000);
console.log(actions);
