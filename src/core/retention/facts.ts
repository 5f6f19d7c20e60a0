// Facts an agent carries from one call to the next (issue 28): the argument values of its tool
// calls. From each call's JSON arguments, the leaf strings and numbers of at least MIN_LENGTH
// characters; for a shell command, also its whitespace-separated words of that length. One
// definition for the `retention` check and the decisions bench, so that both count the same facts.
import { parseJsonText } from '../json/text.js';
import type { RE2JS } from 're2js';
import { checkDetectors, detectorConfig } from '../pii/registry.js';
import { labelTemplate, renderTemplate } from '../pii/template.js';
import type { Policy } from '../policy/schema.js';
import { onMainChain } from '../scope/main-chain.js';
import type { Masker } from '../stabilize/finalize.js';
import type { Artifact, ToolCall } from '../types.js';

export const MIN_LENGTH = 4;

/** What the agent's own history holds: the main chain, without phase markers (they hold no facts). */
export function inHistory(a: Artifact): boolean {
  return onMainChain(a) && a.kind !== 'phase';
}

/**
 * The detectors the `pii` check runs (every built-in type, whatever the policy enables): a value any
 * of them matches is personal data, which the PII rules keep from the model, so it is no fact to keep
 * (and it is never quoted in a report).
 */
export function factPiiMasker(policy: Policy, rules: readonly { name: string; re: RE2JS }[] = []): Masker {
  // Aliases of a numbered template stay inert; a value found is written in the label form (no
  // numbering table: these texts are only compared and quoted, never sent).
  const label = labelTemplate(policy.pii.replacement);
  return {
    detectors: checkDetectors(detectorConfig(policy.pii, rules)),
    replacement: policy.pii.replacement,
    allow: policy.pii.allow,
    alias: (type) => renderTemplate(label, type),
  };
}

const SHELL_TOOL = /bash|shell|terminal|exec|command/i;
const SHELL_KEY = /^(command|cmd|script|commands?)$/i;

function parse(text: string): unknown {
  try {
    return parseJsonText(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The argument values of one tool call, deduplicated, in the order met. Arguments that are not
 * JSON are one string leaf (a shell command when the tool is a shell).
 */
export function argumentValues(call: Pick<ToolCall, 'name' | 'arguments'>): string[] {
  const out = new Set<string>();
  const shellTool = SHELL_TOOL.test(call.name);
  const leaf = (value: string, key: string | undefined): void => {
    if (value.length >= MIN_LENGTH) out.add(value);
    if (shellTool || (key !== undefined && SHELL_KEY.test(key))) {
      for (const word of value.split(/\s+/)) if (word.length >= MIN_LENGTH) out.add(word);
    }
  };
  const walk = (v: unknown, key: string | undefined): void => {
    if (typeof v === 'string') leaf(v, key);
    else if (typeof v === 'number' && Number.isFinite(v)) {
      const s = String(v);
      if (s.length >= MIN_LENGTH) out.add(s);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  const parsed = parse(call.arguments);
  walk(parsed === undefined ? call.arguments : parsed, undefined);
  return [...out];
}

/** Every string of an artifact the model reads: its text (any part's strings) and its calls' arguments. */
export function artifactText(a: Pick<Artifact, 'content' | 'tool_calls'>): string {
  const parts: string[] = [];
  if (typeof a.content === 'string') parts.push(a.content);
  else
    for (const p of a.content) {
      if (p.type === 'text' && typeof p.text === 'string') parts.push(p.text);
      else parts.push(JSON.stringify(p));
    }
  for (const c of a.tool_calls ?? []) parts.push(c.arguments);
  return parts.join('\n');
}

/** The value as it reads inside a JSON string (escapes applied): how a request body holds it. */
export function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** True when `text` holds the value raw or JSON-escaped. */
export function holds(text: string, value: string): boolean {
  return text.includes(value) || text.includes(jsonEscaped(value));
}

/**
 * The texts of a transcript's artifacts joined once, with where each artifact ends, so that "does
 * the value appear in the history up to artifact i" is one search of a prefix.
 */
export class HistoryText {
  private readonly text: string;
  private readonly ends: number[];

  /** `include`: the artifacts the agent's history holds (the others count as empty). */
  constructor(artifacts: readonly Artifact[], include: (a: Artifact) => boolean = () => true) {
    const parts: string[] = [];
    this.ends = [];
    let length = 0;
    for (const a of artifacts) {
      const t = `${include(a) ? artifactText(a) : ''}\n\u0000\n`;
      parts.push(t);
      length += t.length;
      this.ends.push(length);
    }
    this.text = parts.join('');
  }

  /** True when the value (raw or JSON-escaped) appears in artifacts 0..index. */
  seenBy(index: number, value: string): boolean {
    return this.firstHolder(index, value) >= 0;
  }

  /** The first artifact (index) among 0..index whose text holds the value; -1 when none does. */
  firstHolder(index: number, value: string): number {
    const end = this.ends[index] ?? 0;
    let best = -1;
    for (const v of [value, jsonEscaped(value)]) {
      const at = this.text.indexOf(v);
      if (at < 0 || at + v.length > end) continue;
      const holder = this.artifactAt(at);
      if (best === -1 || holder < best) best = holder;
    }
    return best;
  }

  /** The last artifact (index) among 0..index whose text holds the value; -1 when none does. */
  lastHolder(index: number, value: string): number {
    const end = this.ends[index] ?? 0;
    let best = -1;
    for (const v of [value, jsonEscaped(value)]) {
      if (end < v.length) continue;
      const at = this.text.lastIndexOf(v, end - v.length);
      if (at >= 0) best = Math.max(best, this.artifactAt(at));
    }
    return best;
  }

  /** The artifact whose text holds position `at` (the separators never start a match). */
  private artifactAt(at: number): number {
    let lo = 0;
    let hi = this.ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] ?? 0) > at) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
