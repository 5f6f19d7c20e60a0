// How `pii.replacement` and `pii.strategy` must agree (DESIGN §3, docs/pii.md): `{N}` is the
// value's number and only numbered has one, `{HASH}` its keyed hash and only hash has one. A
// template that numbers or hashes needs `{TYPE}` (each type is numbered on its own, so `[PII_1]`
// would name an address and a phone number at once) and must set its `{N}` or `{HASH}` off from
// letters and digits (`[EMAIL_12]` reads back as EMAIL and 12; `[EMAIL12]` would not, under a
// rule named `email1`). A template the strategy cannot use is an error with the fix, never
// silently rewritten: what the policy says is what goes into goldens.
import { DEFAULT_PII_STRATEGY, DEFAULT_TEMPLATES, impliedStrategy } from '../pii/aliases.js';
import type { PiiStrategy } from '../pii/aliases.js';
import { HASH_PLACEHOLDER, NUMBER_PLACEHOLDER, TYPE_PLACEHOLDER } from '../pii/template.js';
import { showValue } from './format.js';

export interface TemplateIssue {
  message: string;
  hint: string;
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** Whether every occurrence of `part` stands apart from letters, digits and other placeholders. */
function setOff(text: string, part: string): boolean {
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
    const before = text[at - 1] ?? '';
    const after = text[at + part.length] ?? '';
    if (/[\p{L}\p{N}}]/u.test(before) || /[\p{L}\p{N}{]/u.test(after)) return false;
  }
  return true;
}

/** The problems of a template under a strategy; empty when they agree. */
export function templateIssues(template: string, strategy: PiiStrategy | undefined): TemplateIssue[] {
  // A policy that names no strategy takes the one its template implies (a fixed text: redact).
  const effective = strategy ?? impliedStrategy(template);
  const shown = showValue(template);
  const named = strategy === undefined ? `${effective} (implied by the replacement)` : effective;
  const own = DEFAULT_TEMPLATES[effective];
  const n = count(template, NUMBER_PLACEHOLDER);
  const h = count(template, HASH_PLACEHOLDER);
  const out: TemplateIssue[] = [];
  const issue = (message: string, hint: string): void => void out.push({ message, hint });

  if (n > 1 || h > 1) {
    issue(`${shown} holds {N} or {HASH} more than once.`, `Write each at most once, e.g. '${own}'.`);
  }
  if (effective === 'numbered' && n === 0) {
    issue(
      `${shown} has no {N}: under pii.strategy ${named} each value is written with its number.`,
      `Add {N}, e.g. '${DEFAULT_TEMPLATES.numbered}' or '[REDACTED_${TYPE_PLACEHOLDER}_${NUMBER_PLACEHOLDER}]', or set pii.strategy: redact for one text per type.`,
    );
  }
  if (effective === 'hash' && h === 0) {
    issue(
      `${shown} has no {HASH}: under pii.strategy hash each value is written with its keyed hash.`,
      `Add {HASH}, e.g. '${DEFAULT_TEMPLATES.hash}'.`,
    );
  }
  if (effective !== 'numbered' && n > 0) {
    issue(
      `${shown} holds {N}, which only pii.strategy numbered fills in (the strategy is ${named}).`,
      `Remove {N} (e.g. '${own}'), or set pii.strategy: numbered.`,
    );
  }
  if (effective !== 'hash' && h > 0) {
    issue(
      `${shown} holds {HASH}, which only pii.strategy hash fills in (the strategy is ${named}).`,
      `Remove {HASH} (e.g. '${own}'), or set pii.strategy: hash.`,
    );
  }
  if ((n > 0 || h > 0) && !template.includes(TYPE_PLACEHOLDER)) {
    issue(
      `${shown} numbers or hashes values but has no {TYPE}: each type is numbered on its own, so the alias would not say which value it stands for.`,
      `Add {TYPE}, e.g. '${own}'.`,
    );
  }
  if (!setOff(template, NUMBER_PLACEHOLDER) || !setOff(template, HASH_PLACEHOLDER)) {
    issue(
      `${shown} puts {N} or {HASH} right next to a letter, digit or another placeholder, so an alias could not be read back.`,
      `Set it off with a character such as _ or :, e.g. '${own}'.`,
    );
  }
  return out;
}

/** `pii.replacement` as the policy sets it, or the default template of its strategy. */
export function effectiveTemplate(
  replacement: string | undefined,
  strategy: PiiStrategy | undefined,
): string {
  return replacement ?? DEFAULT_TEMPLATES[strategy ?? DEFAULT_PII_STRATEGY];
}
