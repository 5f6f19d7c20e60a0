// A stored golden as a run may show it (issue 34). A golden written by an older version, or edited
// by hand, can hold raw PII; everything shown of it (the semantic and unified diff in every format,
// the job summary, the PR comment, annotations, the viewer) comes from here, masked with the
// detectors the `pii` check searches with (the defaults, the policy's opt-in ones, its digit_run
// and its rules). The golden as stored never leaves this module.
//
// Honesty of the comparison: drift is decided on the golden as stored, never on its masked form.
// A raw `a@b.io` where this run writes `[EMAIL_1]` is a difference of what the model reads, so it
// is drift (masking the old side first would hide it); a raw value this run keeps (`pii.allow`) is
// not masked and is no difference. Found values are shown in the label form of the template
// (`[REDACTED_EMAIL]`, template.ts), never numbered afresh: a new numbering of the old side could
// coincide with this run's and make a line look unchanged.
//
// Only strings this run's golden does not hold are searched: this run's golden is the reference of
// what is safe to show (the golden PII guard, pii-guard.ts, passed it), so a tool-made string both
// sides share (a policy hash with a digit run, a message with a token count) is neither masked nor
// reported, and masking one side cannot invent a difference.
import { diagnostic } from '../diagnostics.js';
import { findPii, findPiiIn, maskJsonText, maskText } from '../pii/index.js';
import type { MaskOptions } from '../pii/index.js';
import { labelTemplate, renderTemplate } from '../pii/template.js';
import type { PiiSearch } from '../stabilize/verdict.js';
import { LineIndex } from '../text/line-index.js';
import type { Diagnostic } from '../types.js';
import { diffGoldens, unifiedGoldenDiff } from './diff.js';
import type { GoldenDiff } from './diff.js';
import { parseGolden } from './golden.js';
import type { Golden } from './golden.js';
import { stableStringify } from './stable-json.js';

/** The finding of a stored golden that holds PII (docs/goldens.md). */
export const STORED_PII_CODE = 'golden-stored-pii';

/**
 * Members whose strings are opaque encodings or protocol vocabulary (as visible-texts.ts skips
 * them): a changed signature or base64 payload is not searched, so its random digits are no finding.
 */
const OPAQUE_KEYS = new Set(['type', 'signature', 'data', 'file_data', 'media_type', 'encrypted_content']);

/** Numbers a golden's schema gives: counts and lines, never content. */
const COUNT_KEYS = new Set([
  'schema',
  'tokens',
  'line',
  'limit',
  'used',
  'tokens_before',
  'tokens_after',
  'age',
  'ttl',
]);

export interface StoredComparison {
  /** The semantic diff of the golden as stored against this run's, its strings shown masked. */
  diff: GoldenDiff;
  /** The stored golden with its PII masked: all a report or the viewer may hold of it. */
  shown: Golden;
  /** The unified diff of the shown stored golden against this run's text. */
  unified: () => string;
  /** Set when the stored golden holds PII: at the golden's line, types only, never values. */
  leak: Diagnostic | null;
}

export type StoredResult = ({ ok: true } & StoredComparison) | { ok: false; diagnostic: Diagnostic };

/** Every string (member names included) a value holds. */
function collectStrings(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      collectStrings(v, out);
    }
  }
}

/**
 * The key a member's value is judged by: a `data` that is the text of a plain-text document
 * (`type: text`, as visible-texts.ts reads it) is text, not an encoding.
 */
function keyOf(owner: Record<string, unknown>, key: string): string {
  return key === 'data' && owner['type'] === 'text' ? 'text' : key;
}

/** Whether a string under `key` is searched: not an encoding (opaque member, `data:` URL). */
function searched(s: string, key: string | undefined): boolean {
  return (key === undefined || !OPAQUE_KEYS.has(key)) && !s.startsWith('data:');
}

/** The strings Masker.value searches in `value`: member names, strings and numbers outside counts. */
function searchedStrings(value: unknown, key?: string, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (searched(value, key)) out.add(value);
  } else if (typeof value === 'number') {
    if (key === undefined || !COUNT_KEYS.has(key)) out.add(String(value));
  } else if (Array.isArray(value)) for (const v of value) searchedStrings(v, key, out);
  else if (value !== null && typeof value === 'object') {
    const owner = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(owner)) {
      out.add(k);
      searchedStrings(v, keyOf(owner, k), out);
    }
  }
  return out;
}

class Masker {
  private readonly memo = new Map<string, string>();
  private readonly opts: MaskOptions;
  /** Types found, and the stored strings that held them (to place the finding). */
  readonly types = new Set<string>();
  readonly raw: string[] = [];

  constructor(
    private readonly search: PiiSearch,
    private readonly safe: ReadonlySet<string>,
  ) {
    const label = labelTemplate(search.replacement);
    this.opts = {
      replacement: search.replacement,
      allow: search.allow,
      alias: (type) => renderTemplate(label, type),
    };
  }

  /**
   * Marks clean the candidates one joined scan finds nothing in (short strings are many: one scan
   * instead of one per string, as mask-json.ts does with literals). A JSON text is always searched
   * alone, where its keys give its values a type.
   */
  prescan(candidates: Iterable<string>): void {
    const SEP = '\n\n';
    const plain = [...candidates].filter((s) => !this.safe.has(s) && !/^\s*[[{]/.test(s));
    const { detectors, allow, replacement } = this.search;
    const hits = findPii(plain.join(SEP), detectors, allow, replacement);
    let start = 0;
    let h = 0;
    for (const s of plain) {
      const end = start + s.length;
      while (h < hits.length && (hits[h]?.end ?? 0) <= start) h++;
      if (h >= hits.length || (hits[h]?.start ?? end) >= end) this.memo.set(s, s);
      start = end + SEP.length;
    }
  }

  text(s: string): string {
    if (this.safe.has(s)) return s;
    const known = this.memo.get(s);
    if (known !== undefined) return known;
    const { detectors, allow, replacement } = this.search;
    const found = findPiiIn(s, detectors, allow, replacement);
    let shown = s;
    if (found.length > 0) {
      for (const m of found) this.types.add(m.type);
      this.raw.push(s);
      shown = (maskJsonText(s, detectors, this.opts) ?? maskText(s, detectors, this.opts)).text;
    }
    this.memo.set(s, shown);
    return shown;
  }

  /** `value` with every searched string masked (member names too). */
  value(value: unknown, key?: string): unknown {
    if (typeof value === 'string') return searched(value, key) ? this.text(value) : value;
    if (typeof value === 'number') {
      if (key !== undefined && COUNT_KEYS.has(key)) return value;
      const s = String(value);
      const m = this.text(s);
      return m === s ? value : m;
    }
    if (Array.isArray(value)) return value.map((v) => this.value(v, key));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      const owner = value as Record<string, unknown>;
      for (const [k, v] of Object.entries(owner)) out[this.text(k)] = this.value(v, keyOf(owner, k));
      return out;
    }
    return value;
  }

  /** `value` with every string masked; names and numbers as they are (a diff's counts). */
  strings(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.strings(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.strings(v);
      return out;
    }
    return value;
  }
}

/** Where the first stored string holding PII is written in the golden file. */
function placeOf(text: string, raw: readonly string[]): { line: number; column: number } {
  let at = -1;
  for (const s of raw) {
    let i = text.indexOf(JSON.stringify(s));
    if (i < 0) i = text.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at < 0 ? { line: 1, column: 1 } : new LineIndex(text).position(at);
}

function leakOf(file: string, text: string, masker: Masker): Diagnostic | null {
  if (masker.types.size === 0) return null;
  const types = [...masker.types].sort().join(', ');
  return diagnostic(
    'error',
    STORED_PII_CODE,
    { file, ...placeOf(text, masker.raw) },
    `The stored golden holds unmasked PII (${types}), written by an older version or by hand: it must not stay in the repository. It is shown only masked; drift is still decided on the golden as stored (a raw value where this run writes a mask is a change).`,
    'Regenerate it with `context-stability update`, review the diff and commit it (and remove the values from the history if it was pushed).',
  );
}

/**
 * Reads a stored golden's text (`text`, LF line ends) and compares it with this run's, for
 * showing: parse failures as parseGolden reports them, else the masked comparison.
 */
export function compareStored(
  text: string,
  file: string,
  head: { golden: Golden; text: string },
  search: PiiSearch,
): StoredResult {
  const parsed = parseGolden(text, file);
  if (!parsed.ok) return parsed;
  const safe = new Set<string>();
  collectStrings(head.golden, safe);
  const masker = new Masker(search, safe);
  masker.prescan(searchedStrings(parsed.golden));
  const masked = masker.value(parsed.golden) as Golden;
  // Decided on the golden as stored; what the diff names (ids, reasons, causes) is shown masked.
  const diff = masker.strings(diffGoldens(parsed.golden, head.golden)) as GoldenDiff;
  const leak = leakOf(file, text, masker);
  const shown = leak ? masked : parsed.golden;
  const shownText = leak ? stableStringify(masked) : text;
  return {
    ok: true,
    diff,
    shown,
    unified: () => unifiedGoldenDiff(file, shownText, head.text),
    leak,
  };
}
