// The policies a golden run applies: the head policy (`--policy`, or the conventional file) and,
// for a policy change review, the base policy (`--base-policy FILE` or `git-ref:REF:path`), each
// with its compiled PII rules, its tokenizer and the hash goldens record.
import path from 'node:path';
import { policyHash } from '../../core/golden/golden.js';
import { parsePolicy } from '../../core/policy/parse.js';
import { compileRules } from '../../core/policy/index.js';
import type { CompiledRule, Policy } from '../../core/policy/index.js';
import type { Tokenizer } from '../../core/tokens/tokenizer.js';
import type { Diagnostic } from '../../core/types.js';
import { gitShowFile, parseGitRefSpec } from '../../io/git.js';
import { loadPolicy } from '../../io/load-policy.js';
import { loadPolicyTokenizer } from '../../tokens/load.js';
import { UsageError } from '../args.js';
import { missingPiiKey } from '../pii-key.js';
import type { PolicyTransfer } from './golden-jobs.js';

export interface PolicySetup {
  policy: Policy;
  rules: CompiledRule[];
  /** The key of `pii.strategy: hash` (CONTEXT_STABILITY_PII_KEY); never written anywhere. */
  piiKey?: string | undefined;
  tokenizer: Tokenizer;
  /** As reports show it: 'default', a cwd-relative path, or the `git-ref:` spec. */
  source: string;
  hash: string;
}

export type PolicySetupResult =
  { ok: true; setup: PolicySetup; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** Reports must not carry absolute paths: a policy inside the working directory is named relative to it. */
function displaySource(source: string, cwd: string): string {
  if (source === 'default' || !path.isAbsolute(source)) return source.split(path.sep).join('/');
  const rel = path.relative(cwd, source);
  return rel.startsWith('..') || path.isAbsolute(rel) ? source : rel.split(path.sep).join('/');
}

async function setupFrom(
  policy: Policy,
  rules: CompiledRule[],
  source: string,
  piiKey: string | undefined,
): Promise<PolicySetup> {
  return {
    policy,
    rules,
    piiKey,
    tokenizer: await loadPolicyTokenizer(policy),
    source,
    hash: policyHash(policy),
  };
}

/**
 * `--policy P`, or the conventional file, or the built-in default. `piiKey`: the hash key from the
 * environment (pii-key.ts); a policy that hashes without one does not load.
 */
export async function loadHeadPolicy(
  file: string | undefined,
  cwd: string,
  piiKey?: string,
): Promise<PolicySetupResult> {
  const loaded = await loadPolicy(file, { cwd });
  if (!loaded.ok) return { ok: false, diagnostics: loaded.diagnostics };
  const source = displaySource(loaded.source, cwd);
  const keyless = missingPiiKey(loaded.policy, piiKey, source);
  if (keyless) return { ok: false, diagnostics: [...loaded.diagnostics, keyless] };
  const setup = await setupFrom(loaded.policy, loaded.rules, source, piiKey);
  return { ok: true, setup, diagnostics: loaded.diagnostics };
}

/** `--base-policy`: a policy file, or `git-ref:REF:path` read from git. A malformed spec is a usage error. */
export async function loadBasePolicy(spec: string, cwd: string, piiKey?: string): Promise<PolicySetupResult> {
  const ref = parseGitRefSpec(spec);
  if (ref === null) return loadHeadPolicy(spec, cwd, piiKey);
  if (!ref.ok) throw new UsageError(`Option --base-policy: ${ref.reason}`);
  const shown = await gitShowFile(ref.ref, ref.path, { cwd, label: spec });
  if (!shown.ok) return { ok: false, diagnostics: [shown.diagnostic] };
  const parsed = parsePolicy(shown.text, { file: spec });
  if (!parsed.ok) return { ok: false, diagnostics: parsed.diagnostics };
  const keyless = missingPiiKey(parsed.policy, piiKey, spec);
  if (keyless) return { ok: false, diagnostics: [...parsed.diagnostics, keyless] };
  return {
    ok: true,
    setup: await setupFrom(parsed.policy, parsed.rules, spec, piiKey),
    diagnostics: parsed.diagnostics,
  };
}

/** A policy as a worker thread gets it (golden-jobs.ts): it was valid, so its rules compile again. */
export async function setupFromTransfer(transfer: PolicyTransfer): Promise<PolicySetup> {
  const { rules } = compileRules(transfer.policy, { file: transfer.source });
  return {
    policy: transfer.policy,
    rules,
    piiKey: transfer.piiKey,
    tokenizer: await loadPolicyTokenizer(transfer.policy),
    source: transfer.source,
    hash: transfer.hash,
  };
}

/** The plain data of a setup, for a worker thread. */
export function transferOf(setup: PolicySetup): PolicyTransfer {
  return { policy: setup.policy, source: setup.source, hash: setup.hash, piiKey: setup.piiKey };
}
