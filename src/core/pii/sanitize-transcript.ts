// The fields of a transcript that are not content but still reach every output: artifact and
// tool-call ids, tool names, tags, scopes, provenance, roles and the meta record. They are written
// into goldens, `stabilize --json`/`--emit`, `inspect`, reports and annotations as they stand, so
// PII planted in them (an email as a session id, a phone number as a task name) must go before
// anything else sees the transcript.
//
// Identifiers cannot simply be masked: two ids holding different emails would both become
// `[REDACTED_EMAIL]` and a result would pair with the wrong call, two tasks would merge into one
// scope. An identifier holding PII is replaced by an alias unique within the transcript
// (`redacted-id-a`, `redacted_tool_b`, `redacted-task-c`), the same alias wherever the same value
// occurs, so pairing, provenance and scopes work as before. Aliases are letters only, so no
// detector (digit_run included) finds anything in them: sanitizing twice changes nothing.
// Labels (tags, roles) and the meta record are masked like text; under a numbered or hashed
// template with its label form (`[REDACTED_EMAIL]`, template.ts): they stand outside the content's
// numbering, which counts in content order.
import type { Artifact, Pairing, ToolCall, Transcript } from '../types.js';
import { findPiiIn, maskJsonText } from './mask-json.js';
import { maskText } from './mask.js';
import type { MaskOptions } from './mask.js';
import { labelTemplate, renderTemplate } from './template.js';
import type { Detector } from './types.js';

export interface MetaSearch {
  detectors: readonly Detector[];
  allow: readonly string[];
  replacement: string;
}

/** `a`, `b`, …, `z`, `aa`, `ab`, …: an alias suffix without digits. */
function letters(n: number): string {
  let s = '';
  for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}

/** Hands out aliases for one kind of identifier, never one already used in the transcript. */
class Aliases {
  private readonly map = new Map<string, string>();
  private next = 0;
  constructor(
    private readonly prefix: string,
    private readonly taken: Set<string>,
  ) {}
  of(value: string): string {
    let alias = this.map.get(value);
    if (alias !== undefined) return alias;
    do alias = `${this.prefix}${letters(this.next++)}`;
    while (this.taken.has(alias));
    this.taken.add(alias);
    this.map.set(value, alias);
    return alias;
  }
}

function everyIdOf(t: Transcript): Set<string> {
  const ids = new Set<string>();
  for (const a of t.artifacts) {
    ids.add(a.id);
    if (a.call_id !== undefined) ids.add(a.call_id);
    for (const id of a.call_ids ?? []) ids.add(id);
    for (const c of a.tool_calls ?? []) ids.add(c.id);
    for (const id of a.provenance ?? []) ids.add(id);
  }
  return ids;
}

/** The strings of the transcript that name or label something (not content), each once. */
function labelsOf(t: Transcript): Set<string> {
  const out = everyIdOf(t);
  for (const a of t.artifacts) {
    if (a.tool !== undefined) out.add(a.tool);
    if (a.role !== undefined) out.add(a.role);
    for (const c of a.tool_calls ?? []) out.add(c.name);
    for (const tag of a.tags ?? []) out.add(tag);
    if (a.scope?.task !== undefined) out.add(a.scope.task);
    if (a.scope?.phase !== undefined) out.add(a.scope.phase);
  }
  return out;
}

/**
 * The labels holding PII. One scan over all of them joined by blank lines (they are short and
 * many), then each label a hit touches is confirmed alone, so the answer is exactly "a scan of this
 * label finds something".
 */
function leaky(labels: readonly string[], s: MetaSearch): Set<string> {
  const SEP = '\n\n';
  const joined = labels.join(SEP);
  const hits = findPiiIn(joined, s.detectors, s.allow, s.replacement);
  const out = new Set<string>();
  if (hits.length === 0) return out;
  let start = 0;
  let h = 0;
  for (const label of labels) {
    const end = start + label.length;
    while (h < hits.length && (hits[h]?.end ?? 0) <= start) h++;
    let touched = false;
    for (let k = h; k < hits.length && (hits[k]?.start ?? 0) < end; k++) touched = true;
    if (touched && findPiiIn(label, s.detectors, s.allow, s.replacement).length > 0) out.add(label);
    start = end + SEP.length;
  }
  return out;
}

/** Aliases of the template stay inert; a found value gets the label form. */
function labelOptions(s: MetaSearch): MaskOptions {
  const label = labelTemplate(s.replacement);
  return { replacement: s.replacement, allow: s.allow, alias: (type) => renderTemplate(label, type) };
}

function maskLabel(text: string, s: MetaSearch): string {
  return maskText(text, s.detectors, labelOptions(s)).text;
}

function maskMeta(value: unknown, s: MetaSearch, ids: (id: string) => string): unknown {
  if (typeof value === 'string') {
    const opts = labelOptions(s);
    return (maskJsonText(value, s.detectors, opts) ?? maskText(value, s.detectors, opts)).text;
  }
  if (Array.isArray(value)) return value.map((v) => maskMeta(v, s, ids));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // An `id` member names an artifact (the summaries' history): it gets the artifact's alias.
      out[maskLabel(k, s)] = k === 'id' && typeof v === 'string' ? ids(v) : maskMeta(v, s, ids);
    }
    return out;
  }
  return value;
}

function metaHoldsPii(value: unknown, s: MetaSearch): boolean {
  if (typeof value === 'string') return findPiiIn(value, s.detectors, s.allow, s.replacement).length > 0;
  if (Array.isArray(value)) return value.some((v) => metaHoldsPii(v, s));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => metaHoldsPii(k, s) || metaHoldsPii(v, s));
  }
  return false;
}

function remapPairing(p: Pairing, id: (v: string) => string): Pairing {
  return {
    resultToCall: Object.fromEntries(Object.entries(p.resultToCall).map(([r, c]) => [id(r), id(c)])),
    unpairedCalls: p.unpairedCalls.map((u) => ({ ...u, artifact: id(u.artifact), call_id: id(u.call_id) })),
    unpairedResults: p.unpairedResults.map((u) => ({
      ...u,
      artifact: id(u.artifact),
      call_id: id(u.call_id),
    })),
  };
}

/**
 * The transcript with PII gone from every field that is not content (content is masked by the
 * stabilizer). Returns the same object when there is nothing to do, which is almost always.
 */
export function sanitizeTranscript(t: Transcript, s: MetaSearch): Transcript {
  if (s.detectors.length === 0) return t;
  const bad = leaky([...labelsOf(t)], s);
  const metaBad = metaHoldsPii(t.meta, s);
  if (bad.size === 0 && !metaBad) return t;
  const taken = labelsOf(t);
  const idAliases = new Aliases('redacted-id-', taken);
  const toolAliases = new Aliases('redacted_tool_', taken);
  const taskAliases = new Aliases('redacted-task-', taken);
  const phaseAliases = new Aliases('redacted-phase-', taken);
  const id = (v: string): string => (bad.has(v) ? idAliases.of(v) : v);
  const tool = (v: string): string => (bad.has(v) ? toolAliases.of(v) : v);
  const label = (v: string): string => (bad.has(v) ? maskLabel(v, s) : v);
  const call = (c: ToolCall): ToolCall => ({ ...c, id: id(c.id), name: tool(c.name) });
  const artifacts = t.artifacts.map((a): Artifact => {
    const out: Artifact = { ...a, id: id(a.id) };
    if (a.role !== undefined) out.role = label(a.role);
    if (a.tool !== undefined) out.tool = tool(a.tool);
    if (a.call_id !== undefined) out.call_id = id(a.call_id);
    if (a.call_ids !== undefined) out.call_ids = a.call_ids.map(id);
    if (a.tool_calls !== undefined) out.tool_calls = a.tool_calls.map(call);
    if (a.tags !== undefined) out.tags = a.tags.map(label);
    if (a.provenance !== undefined) out.provenance = a.provenance.map(id);
    if (a.scope !== undefined) {
      const scope: { task?: string; phase?: string } = {};
      if (a.scope.task !== undefined)
        scope.task = bad.has(a.scope.task) ? taskAliases.of(a.scope.task) : a.scope.task;
      if (a.scope.phase !== undefined)
        scope.phase = bad.has(a.scope.phase) ? phaseAliases.of(a.scope.phase) : a.scope.phase;
      out.scope = scope;
    }
    return out;
  });
  const metaId = (v: string): string =>
    bad.has(v) || findPiiIn(v, s.detectors, s.allow, s.replacement).length > 0 ? idAliases.of(v) : v;
  const meta = metaBad ? (maskMeta(t.meta, s, metaId) as Record<string, unknown>) : t.meta;
  return { ...t, artifacts, meta, pairing: remapPairing(t.pairing, id) };
}
