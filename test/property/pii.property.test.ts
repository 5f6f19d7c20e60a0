// Invariants 7 and 8 (DESIGN §4 stage 4, §5 `pii`): planted PII never survives anywhere in the
// result (context, ledger, summaries log, events); masking is idempotent; and a transcript masked
// up front stabilizes to the same context with nothing left to mask.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../src/core/policy/index.js';
import { maskString } from '../../src/core/stabilize/finalize.js';
import { createMasker } from '../../src/core/stabilize/stabilize.js';
import type { Artifact, Content } from '../../src/core/types.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { projection, stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

function maskAll(policy: Policy): (text: string) => string {
  const masker = createMasker(policy);
  return (text) => maskString(text, masker, {});
}

function mapContent(content: Content, f: (text: string) => string): Content {
  if (typeof content === 'string') return f(content);
  return content.map((p) =>
    p.type === 'text' && typeof p.text === 'string' ? { ...p, text: f(p.text) } : p,
  );
}

/** Every text a detector sees: content text parts and tool-call arguments. */
function textsOf(a: Pick<Artifact, 'content' | 'tool_calls'>): string[] {
  const out: string[] = [];
  mapContent(a.content, (t) => (out.push(t), t));
  for (const c of a.tool_calls ?? []) out.push(c.arguments);
  return out;
}

describe('pii', () => {
  it('no planted value survives anywhere in the result', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const json = JSON.stringify(stabilize(c.transcript, policy));
        for (const { type, value } of c.pii) {
          if (json.includes(value)) throw new Error(`a planted ${type} survived in the result`);
        }
      }),
      fcOptions(1000),
    );
  });

  it('masking is idempotent on every text of a transcript', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const mask = maskAll(policy);
        for (const a of c.transcript.artifacts) {
          for (const text of textsOf(a)) {
            const once = mask(text);
            expect(mask(once)).toBe(once);
          }
        }
      }),
      fcOptions(1000),
    );
  });

  it('a transcript masked up front gives the same context, with nothing left to mask', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const mask = maskAll(policy);
        const artifacts = c.transcript.artifacts.map((a) => ({
          ...a,
          content: mapContent(a.content, mask),
          ...(a.tool_calls
            ? { tool_calls: a.tool_calls.map((t) => ({ ...t, arguments: mask(t.arguments) })) }
            : {}),
        }));
        const masked = stabilize({ ...c.transcript, artifacts }, policy);
        expect(masked.ledger.filter((e) => e.pii !== undefined).map((e) => e.id)).toEqual([]);
        expect(projection(masked.context)).toEqual(projection(stabilize(c.transcript, policy).context));
      }),
      fcOptions(1000),
    );
  });
});
