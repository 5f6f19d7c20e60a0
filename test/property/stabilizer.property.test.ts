// Issue 10's invariants of the stabilizer itself, for generated transcripts and policies: unless the
// run is escalated, the model sees the task statement and the latest user request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latestUserRequest, taskStatement } from '../../src/core/scope/task.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

describe('stabilizer invariants', () => {
  it('keeps the task statement and the latest user request unless the run is escalated', () => {
    let checked = 0;
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        if (r.status === 'escalated') return;
        checked++;
        const kept = new Set(r.context.filter((i) => !i.placeholder).map((i) => i.id));
        for (const a of taskStatement(c.transcript.artifacts).artifacts)
          expect(kept.has(a.id), a.id).toBe(true);
        const latest = latestUserRequest(c.transcript.artifacts);
        if (latest) expect(kept.has(latest.id), latest.id).toBe(true);
      }),
      fcOptions(500),
    );
    // Many generated cases escalate (an assistant-first chat that the Anthropic API refuses, …):
    // about one in eight is checked (seed 825954700 checked 48 of 500), so the floor only proves
    // the property is not vacuous.
    expect(checked).toBeGreaterThan(20);
  });
});
