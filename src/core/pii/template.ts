// The replacement template of `pii.replacement` (DESIGN §3) and the aliases it renders: `{TYPE}` is
// the upper-case type, `{N}` a value's number (strategy numbered), `{HASH}` its keyed hash
// (strategy hash). A template without `{N}` and `{HASH}` renders one text per type (redact).
//
// Aliases are inert (mask.ts): detection ignores every character of a rendered alias, so masking
// twice changes nothing even though `[EMAIL_12]` holds digits that `digit_run` or a user rule would
// find. A fixed template is found by its literal occurrences (as before aliases existed); a
// numbered or hashed one by a pattern built from the template, with its types spelled out.
import { literalOccurrences, union } from './spans.js';
import type { Interval } from './spans.js';

export const TYPE_PLACEHOLDER = '{TYPE}';
export const NUMBER_PLACEHOLDER = '{N}';
export const HASH_PLACEHOLDER = '{HASH}';

/** Characters of a `{HASH}`: lower-case RFC 4648 base32, 8 of them (40 bits). */
export const HASH_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const HASH_CHARS = 8;

/**
 * What labels (tags, roles, meta values) and messages are masked with when the policy's template
 * numbers or hashes values: a label is masked on its own, outside the transcript's numbering.
 */
export const LABEL_TEMPLATE = '[REDACTED_{TYPE}]';

/** How a number and a hash are written in text; bounded, so a long digit run costs little. */
const NUMBER_SOURCE = '[1-9][0-9]{0,9}';
const HASH_SOURCE = `[a-z2-7]{${HASH_CHARS}}`;

/** Whether the template renders a different text per value (`{N}` or `{HASH}`). */
export function isPerValue(template: string): boolean {
  return template.includes(NUMBER_PLACEHOLDER) || template.includes(HASH_PLACEHOLDER);
}

/** What labels and messages are masked with under `template` (LABEL_TEMPLATE for a per-value one). */
export function labelTemplate(template: string): string {
  return isPerValue(template) ? LABEL_TEMPLATE : template;
}

/**
 * The template rendered for one type and, for a per-value template, the value's number or hash
 * (`part`). Without a part, `{N}` and `{HASH}` stay as written (only a caller that renders texts
 * nobody reads does that, e.g. a check whether a text holds PII at all).
 */
export function renderTemplate(template: string, type: string, part?: string): string {
  const typed = template.replaceAll(TYPE_PLACEHOLDER, type.toUpperCase());
  if (part === undefined) return typed;
  return typed.replaceAll(NUMBER_PLACEHOLDER, part).replaceAll(HASH_PLACEHOLDER, part);
}

function quote(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The template as a regular expression source, and the groups of its type and part when captured. */
function templateSource(
  template: string,
  typeSource: string,
  capture: boolean,
): { source: string; typeGroup: number; partGroup: number } {
  let group = 0;
  let typeGroup = 0;
  let partGroup = 0;
  const source = template
    .split(/(\{TYPE\}|\{N\}|\{HASH\})/)
    .map((piece) => {
      if (piece === TYPE_PLACEHOLDER) {
        if (!capture) return typeSource;
        // A repeated {TYPE} must repeat the first one.
        if (typeGroup !== 0) return `\\${typeGroup}`;
        typeGroup = ++group;
        return `(${typeSource})`;
      }
      if (piece !== NUMBER_PLACEHOLDER && piece !== HASH_PLACEHOLDER) return quote(piece);
      const part = piece === NUMBER_PLACEHOLDER ? NUMBER_SOURCE : HASH_SOURCE;
      if (!capture) return part;
      if (partGroup !== 0) return `(?:${part})`;
      partGroup = ++group;
      return `(${part})`;
    })
    .join('');
  return { source, typeGroup, partGroup };
}

const inertCache = new Map<string, RegExp>();

/** The aliases a per-value template renders for these types, as one pattern (cached). */
function aliasPattern(template: string, types: readonly string[]): RegExp {
  const names = [...new Set(types.map((t) => t.toUpperCase()))].sort(
    (a, b) => b.length - a.length || (a < b ? -1 : 1),
  );
  const key = `${template}\u0000${names.join(',')}`;
  let re = inertCache.get(key);
  if (!re) {
    const alternatives = `(?:${names.map(quote).join('|')})`;
    re = new RegExp(templateSource(template, alternatives, false).source, 'g');
    if (inertCache.size > 64) inertCache.clear();
    inertCache.set(key, re);
  }
  return re;
}

/**
 * Where `text` holds a rendered replacement of `template` for one of `types`, as a union: literal
 * renderings for a fixed template; for a per-value one, its aliases and the label form of each
 * type (LABEL_TEMPLATE, what tags and meta are masked with).
 */
export function replacementOccurrences(text: string, template: string, types: readonly string[]): Interval[] {
  if (!isPerValue(template))
    return literalOccurrences(
      text,
      types.map((t) => renderTemplate(template, t)),
    );
  const found = literalOccurrences(
    text,
    types.map((t) => renderTemplate(LABEL_TEMPLATE, t)),
  );
  if (types.length === 0) return found;
  const re = aliasPattern(template, types);
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    found.push({ start: m.index, end: m.index + m[0].length });
  }
  return union(found);
}

/** An alias read back: its upper-case type and its number or hash, where it stands in the text. */
export interface AliasToken {
  start: number;
  end: number;
  type: string;
  part: string;
}

interface Reader {
  re: RegExp;
  typeGroup: number;
  partGroup: number;
}

const readerCache = new Map<string, Reader | null>();

/** The longest type a template renders: a rule name's limit (POLICY_LIMITS.maxRuleNameChars). */
export const MAX_TYPE_NAME_CHARS = 64;

/**
 * A type as a template renders it, read back: a detector or rule name in upper case. Bounded:
 * unbounded, a template that starts with {TYPE} (`{TYPE}_{N}`, `{TYPE}_REDACTED`) made each search
 * quadratic on a long run of capitals, since every start scanned the rest of the run.
 */
export const TYPE_NAME_PATTERN = `[A-Z][A-Z0-9_]{0,${MAX_TYPE_NAME_CHARS - 1}}`;

/**
 * A pattern that reads aliases of a per-value template back (any upper-case type), capturing type
 * and part; null for a fixed template, or one without `{TYPE}` (its aliases name no type).
 */
function aliasReader(template: string): Reader | null {
  let reader = readerCache.get(template);
  if (reader === undefined) {
    reader = null;
    if (isPerValue(template) && template.includes(TYPE_PLACEHOLDER)) {
      const s = templateSource(template, TYPE_NAME_PATTERN, true);
      reader = { re: new RegExp(s.source, 'g'), typeGroup: s.typeGroup, partGroup: s.partGroup };
    }
    if (readerCache.size > 16) readerCache.clear();
    readerCache.set(template, reader);
  }
  return reader;
}

/** The aliases of `template` in `text`, in order (none for a fixed template). */
export function readAliases(text: string, template: string): AliasToken[] {
  const reader = aliasReader(template);
  if (!reader) return [];
  const { re, typeGroup, partGroup } = reader;
  const out: AliasToken[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    const type = m[typeGroup] ?? '';
    const part = m[partGroup] ?? '';
    out.push({ start: m.index, end: m.index + m[0].length, type, part });
  }
  return out;
}
