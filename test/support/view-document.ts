// ViewDocuments for the viewer tests, made by the real pipeline: each transcript is read, run
// through stabilize → validate → golden with a real policy, and compared with a stored golden the
// way `check` does it. Nothing here is hand-made except the transcripts the caller passes.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TokenCaches, evaluateTranscript, reportViolations } from '../../src/cli/check/evaluate.js';
import { metadataNote } from '../../src/cli/check/golden-run.js';
import { loadHeadPolicy } from '../../src/cli/check/policies.js';
import { toolInfo } from '../../src/cli/check/tool.js';
import type { PolicySetup } from '../../src/cli/check/policies.js';
import { summarize } from '../../src/core/golden/check-report.js';
import type { TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../src/core/golden/diff.js';
import { parseGolden, policyHash } from '../../src/core/golden/golden.js';
import type { Golden } from '../../src/core/golden/golden.js';
import { stableStringify } from '../../src/core/golden/stable-json.js';
import { compareOutcomes } from '../../src/core/golden/report-order.js';
import { buildPicture } from '../../src/core/golden/picture.js';
import { parsePolicy } from '../../src/core/policy/parse.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { failingChecks } from '../../src/core/report/report.js';
import { readTranscript } from '../../src/core/readers/index.js';
import type { ViewDocument, ViewTranscript } from '../../src/core/view/model.js';
import { absentArtifacts } from '../../src/core/view/absent.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const EXAMPLES_DIR = 'examples/transcripts';
export const GOLDEN_DIR = 'golden';

/** A transcript to put on the page: its repo-relative name, its text and the stored golden. */
export interface ViewInput {
  transcript: string;
  text: string;
  /** The stored golden to compare with; null or absent: none (the outcome is `new`). */
  stored?: Golden | null;
}

/**
 * A policy file (repo-relative or absolute) loaded as `check --policy` loads it; without one, the
 * repository's own `.github/context-policy.yml` (the policy its example goldens are made with).
 */
export async function policySetup(file?: string): Promise<PolicySetup> {
  const loaded = await loadHeadPolicy(file, REPO_ROOT);
  if (!loaded.ok) throw new Error(`policy did not load: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.setup;
}

/** A policy given as YAML text (named `source` in the page), as `check --policy` would load it. */
export async function policySetupFromText(text: string, source = 'inline.yml'): Promise<PolicySetup> {
  const parsed = parsePolicy(text, { file: source });
  if (!parsed.ok) throw new Error(`policy did not parse: ${JSON.stringify(parsed.diagnostics)}`);
  const { policy, rules } = parsed;
  return {
    policy,
    rules,
    tokenizer: await loadTokenizer(policy.tokenizer),
    source,
    hash: policyHash(policy),
  };
}

function goldenFor(setup: PolicySetup, input: ViewInput, caches: TokenCaches): Golden | null {
  const read = readTranscript(input.text, { file: input.transcript });
  return read.ok ? evaluateTranscript(read.transcript, input.transcript, setup, caches).golden : null;
}

/** One transcript as `check` would judge it (see src/cli/check/golden-run.ts), with its goldens. */
export function viewTranscript(
  setup: PolicySetup,
  input: ViewInput,
  caches = new TokenCaches(),
): ViewTranscript {
  const stored = input.stored ?? null;
  const golden = `${GOLDEN_DIR}/${input.transcript}.golden.json`;
  const read = readTranscript(input.text, { file: input.transcript });
  if (!read.ok) {
    const outcome: TranscriptOutcome = {
      transcript: input.transcript,
      golden,
      outcome: 'error',
      violations: [],
      diagnostics: read.diagnostics,
    };
    return { outcome, head: null, stored };
  }
  const head = evaluateTranscript(read.transcript, input.transcript, setup, caches);
  // What `check` hands the page of the artifacts the context left out (golden-run.ts).
  const absent = absentArtifacts(read.transcript.artifacts, head.golden);
  const failing = failingChecks(head.report.checks).length > 0;
  const common: TranscriptOutcome = {
    transcript: input.transcript,
    golden,
    outcome: 'pass',
    status: head.report.status,
    budget: { limit: head.golden.budget.limit, used: head.golden.budget.used },
    violations: reportViolations(head.report),
    picture: buildPicture(head.golden.ledger, head.golden.context, head.golden.budget.limit),
    ...(read.transcript.diagnostics.length > 0 ? { diagnostics: read.transcript.diagnostics } : {}),
  };
  if (stored === null)
    return {
      outcome: { ...common, outcome: failing ? 'violations' : 'new' },
      head: head.golden,
      stored,
      absent,
    };
  const diff = diffGoldens(stored, head.golden);
  if (!diff.equal) {
    const unified = unifiedGoldenDiff(golden, stableStringify(stored), head.text);
    const outcome: TranscriptOutcome = {
      ...common,
      outcome: 'drift',
      drift_severity: 'error',
      diff,
      unified,
    };
    return { outcome, head: head.golden, stored, absent };
  }
  // Not drift: only metadata differs (policy hash, token counts…), said in a note.
  const notes = diff.metadata.length > 0 ? { notes: [metadataNote(diff.metadata)] } : {};
  return {
    outcome: { ...common, ...notes, outcome: failing ? 'violations' : 'pass' },
    head: head.golden,
    stored,
    absent,
  };
}

/** The page's document: transcripts in the order the human reports list them (what broke first). */
export function viewDocument(setup: PolicySetup, inputs: readonly ViewInput[]): ViewDocument {
  const caches = new TokenCaches();
  const transcripts = inputs
    .map((input) => viewTranscript(setup, input, caches))
    .sort((a, b) => compareOutcomes(a.outcome, b.outcome));
  return {
    tool: toolInfo(),
    policy: { source: setup.source, hash: setup.hash },
    tokenizer: { name: setup.tokenizer.name, version: setup.tokenizer.version },
    replacement: setup.policy.pii.replacement,
    ci: false,
    summary: summarize(
      transcripts.map((t) => t.outcome),
      [],
    ),
    transcripts,
  };
}

/** The bundled examples with their stored goldens from `golden/`. */
export function exampleInputs(): ViewInput[] {
  const dir = path.join(REPO_ROOT, EXAMPLES_DIR);
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const transcript = `${EXAMPLES_DIR}/${name}`;
      const storedText = readFileSync(path.join(REPO_ROOT, GOLDEN_DIR, `${transcript}.golden.json`), 'utf8');
      const parsed = parseGolden(storedText, transcript);
      if (!parsed.ok) throw new Error(`stored golden of ${transcript} does not parse`);
      return { transcript, text: readFileSync(path.join(dir, name), 'utf8'), stored: parsed.golden };
    });
}

/** Planted in the raw text of `canaryInput`: the stabilizer masks them, so no page may show them. */
export const CANARY_EMAIL = 'canary.viewer.7c1f@example.org';
export const CANARY_PHONE = '+44 20 7946 0371';
export const CANARIES = [CANARY_EMAIL, CANARY_PHONE, '7946 0371'];

/**
 * A native JSONL session of our own: PII in a user message and a tool output (masked in the
 * golden), a pinned tool output too large for the budget (a `budget` violation at its id), a
 * duplicate question and a superseded file read.
 */
export function canaryInput(transcript = 'sessions/parcel-support.native.jsonl'): ViewInput {
  const big = Array.from(
    { length: 900 },
    (_, i) => `row ${i}: shipment ${1000 + i} scanned at depot ${i % 7}, status in_transit`,
  );
  const records: Record<string, unknown>[] = [
    { meta: { title: 'viewer canary session' } },
    { id: 'sys', kind: 'system', content: 'You are the support assistant of a parcel carrier.' },
    { id: 'task', kind: 'task', content: 'Find out why the parcel of the customer is late.' },
    { id: 'u1', kind: 'user', content: 'Where is my parcel? It was due on Monday.' },
    {
      id: 'u2',
      kind: 'user',
      content: `Where is my parcel? It was due on Monday. Write to ${CANARY_EMAIL}.`,
    },
    {
      id: 'a1',
      kind: 'assistant',
      content: 'Let me look the shipment up.',
      tool_calls: [{ id: 'c1', name: 'lookup', arguments: { email: CANARY_EMAIL } }],
    },
    {
      id: 'r1',
      kind: 'tool',
      tool: 'lookup',
      call_id: 'c1',
      content: `customer phone ${CANARY_PHONE}, parcel held at depot 3`,
    },
    {
      id: 'a2',
      kind: 'assistant',
      content: 'Pulling the depot scan log.',
      tool_calls: [{ id: 'c2', name: 'scan_log', arguments: { depot: 3 } }],
    },
    { id: 'r2', kind: 'tool', tool: 'scan_log', call_id: 'c2', content: big.join('\n') },
    { id: 'doc', kind: 'retrieval', pin: true, content: big.slice(0, 330).join('\n') },
    { id: 'a3', kind: 'assistant', content: 'The parcel is held at depot 3 because of a customs check.' },
    { id: 'u3', kind: 'user', content: 'Thanks, please call me when it moves.' },
  ];
  return { transcript, text: records.map((r) => JSON.stringify(r)).join('\n') + '\n', stored: null };
}

export const PRE_MASKED = 'test/fixtures/view/pre-masked.native.jsonl';

/**
 * A native session recorded already masked (`[REDACTED_EMAIL]`, `[REDACTED_PHONE]` in messages, a
 * tool call and its result), with one address left for this run to mask.
 */
export function preMaskedInput(): ViewInput {
  return {
    transcript: PRE_MASKED,
    text: readFileSync(path.join(REPO_ROOT, PRE_MASKED), 'utf8'),
    stored: null,
  };
}

/** A transcript that cannot be read: an `error` outcome with diagnostics and no golden. */
export function brokenInput(transcript = 'sessions/broken.openai.json'): ViewInput {
  return { transcript, text: '{"messages": [ {"role": "user", "content": "hi"} ', stored: null };
}

/**
 * The bundled examples (passing against their stored goldens), one of them drifted (its stored
 * golden made with a tighter budget), one passing with a note (its stored golden made with a policy
 * that differs only in `checks.drift`: the policy hash changed, the context did not), the canary
 * session (new, with a budget violation) and an unreadable transcript. `canary` replaces the
 * canary session (e.g. the same one read from a file); `extra` are checked too.
 */
export async function exampleDocument(
  canary: ViewInput = canaryInput(),
  extra: readonly ViewInput[] = [],
): Promise<ViewDocument> {
  const setup = await policySetup();
  const tight = await policySetup('test/fixtures/check/policy-tight.yml');
  const repoPolicy = readFileSync(path.join(REPO_ROOT, '.github/context-policy.yml'), 'utf8');
  const edited = await policySetupFromText(repoPolicy.replace(/^(\s+drift:) error$/m, '$1 warning'));
  if (edited.hash === setup.hash) throw new Error('the edited policy should have another hash');
  const inputs = exampleInputs().map((input) => {
    if (input.transcript.endsWith('session.claude-code.jsonl'))
      return { ...input, stored: goldenFor(tight, input, new TokenCaches()) };
    if (input.transcript.endsWith('parallel-tools.openai.json'))
      return { ...input, stored: goldenFor(edited, input, new TokenCaches()) };
    return input;
  });
  return viewDocument(setup, [...inputs, canary, brokenInput(), ...extra]);
}

/**
 * A long native JSONL session of exactly `artifacts` artifacts (system, task, then rounds of a
 * question, a tool call, its result and an answer): most of it cannot fit the budget.
 */
export function longSessionInput(artifacts = 2000, transcript = 'sessions/long.native.jsonl'): ViewInput {
  const records: Record<string, unknown>[] = [
    { id: 'sys', kind: 'system', content: 'You are an operations assistant for a fleet of build machines.' },
    { id: 'task', kind: 'task', content: 'Keep the build fleet healthy and answer questions about it.' },
  ];
  for (let round = 0; records.length < artifacts; round++) {
    const host = `builder-${String(round % 97).padStart(2, '0')}`;
    const round4 = [
      { id: `u${round}`, kind: 'user', content: `How is ${host} doing after job ${round}?` },
      {
        id: `a${round}`,
        kind: 'assistant',
        content: `Checking ${host}.`,
        tool_calls: [{ id: `c${round}`, name: 'host_status', arguments: { host, job: round } }],
      },
      {
        id: `r${round}`,
        kind: 'tool',
        tool: 'host_status',
        call_id: `c${round}`,
        content: `${host}: load ${(round % 13) / 4}, disk ${40 + (round % 50)}% used, job ${round} finished`,
      },
      { id: `b${round}`, kind: 'assistant', content: `${host} is fine: job ${round} finished normally.` },
    ];
    records.push(...round4.slice(0, artifacts - records.length));
  }
  return { transcript, text: records.map((r) => JSON.stringify(r)).join('\n') + '\n', stored: null };
}
