// HTML-safe markup for the GitHub surfaces (job summary, PR comment). core.summary and the
// comments API render what they are given as GitHub-flavoured markdown with inline HTML, and
// escape nothing: every transcript-derived string goes through escapeText, and code goes in a
// fence that no backtick run inside can close. Both surfaces have a size limit: fitLayout cuts a
// document by whole parts, so a cut never leaves an open table, `<details>` or code fence.
import { escapeMarkdown, fenced } from '../core/golden/render-markdown.js';

/** After `@`: GitHub makes a mention only of `@` directly followed by a name character. */
const ZERO_WIDTH_JOINER = '\u200D';

/**
 * Text safe in a table cell, list item, `<summary>` or paragraph: the shared markdown escaper
 * (HTML and markdown markup as entities, one line, no block opened at its start) plus a zero-width
 * joiner after each `@`, so that a name in a PR comment cannot mention (and notify) a user or team.
 * An entity (`&#64;`) does not do that: GitHub decodes entities before it looks for mentions.
 */
export function escapeText(text: string): string {
  return escapeMarkdown(text).replace(/@/g, `@${ZERO_WIDTH_JOINER}`);
}

/**
 * Text inside `<code>` (a command to copy): escaped as escapeText but `@` left as it is, since
 * GitHub makes no mention inside code and a joiner would be copied into the command.
 */
export function escapeCode(text: string): string {
  return escapeMarkdown(text);
}

/** A fenced code block whose fence is longer than any backtick run in the text (shared with --format markdown). */
export const codeBlock = fenced;

/** `<details>` with an already escaped summary; blank lines around the body so markdown renders. */
export function details(summaryHtml: string, body: readonly string[]): string[] {
  return [`<details><summary>${summaryHtml}</summary>`, '', ...body, '', '</details>', ''];
}

/** A markdown table row; cells must already be escaped. */
export function tableRow(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Header and alignment rows of a table: `right` columns hold numbers. */
export function tableHead(columns: readonly { title: string; right?: boolean }[]): string[] {
  return [tableRow(columns.map((c) => c.title)), tableRow(columns.map((c) => (c.right ? '---:' : '---')))];
}

/**
 * A link to an http(s) URL the action built itself (the run page); anything else gives plain
 * escaped text. Characters that would end the link early are percent-encoded.
 */
export function link(label: string, url: string): string {
  if (!/^https?:\/\/[^\s]+$/.test(url)) return escapeText(label);
  const safe = url.replace(
    /[()<>"'`\\|[\]]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `[${escapeText(label)}](${safe})`;
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * One unit of a document, in forms from the smallest to the fullest; each form is taken at its
 * tier (0 first) when it fits, a larger form replacing the smaller one.
 */
export interface Part {
  forms: { text: string; tier: number }[];
  /** What the cut note counts when the part is left out; parts without it are always shown. */
  omitted?: string;
  /** What the cut note counts when a smaller form is shown instead of the fullest. */
  shortened?: string;
}

/** Parts under a heading (or table head) and a tail, shown only when one of the parts is. */
export interface Section {
  head?: string;
  tail?: string;
  parts: Part[];
  /** The cut note goes before this section's parts. */
  note?: boolean;
}

export interface LayoutOptions {
  limit: number;
  measure: (text: string) => number;
  /** The note saying what was cut, from counts per `omitted` / `shortened` key. */
  note: (counts: ReadonlyMap<string, number>) => string;
}

/** The longest prefix of `text` of at most `limit` units, ending at a line break when there is one. */
function cutText(text: string, limit: number, measure: (t: string) => number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  // Never end on half a surrogate pair.
  if (lo > 0 && /[\uD800-\uDBFF]/.test(text.charAt(lo - 1))) lo--;
  const cut = text.slice(0, lo);
  const newline = cut.lastIndexOf('\n');
  return newline >= 0 ? cut.slice(0, newline + 1) : cut;
}

function increment(counts: Map<string, number>, key: string | undefined): void {
  if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * The document within opts.limit (in `measure` units): every part in its fullest form when that
 * fits; otherwise forms by tier, in document order inside a tier, while they fit, and the note.
 * Only when the always-shown parts alone exceed the limit is the text cut at a line break.
 */
export function fitLayout(sections: readonly Section[], opts: LayoutOptions): string {
  const size = opts.measure;
  const compose = (pick: (part: Part) => string | undefined, note: string): string =>
    sections
      .map((section) => {
        const shown = section.parts.flatMap((p) => pick(p) ?? []);
        const body = shown.length > 0 ? (section.head ?? '') + shown.join('') + (section.tail ?? '') : '';
        return section.note ? note + body : body;
      })
      .join('');
  const full = compose((part) => part.forms.at(-1)?.text, '');
  if (size(full) <= opts.limit) return full;

  // Room for the note with every cuttable part counted: the real note is never longer.
  const parts = sections.flatMap((section) => section.parts);
  const most = new Map<string, number>();
  for (const part of parts) {
    increment(most, part.omitted);
    increment(most, part.shortened);
  }
  const budget = opts.limit - size(opts.note(most));

  const chosen = new Map<Part, number>();
  const opened = new Set<Section>();
  let used = 0;
  const candidates = sections.flatMap((section) =>
    section.parts.flatMap((part) => part.forms.map((form, index) => ({ section, part, form, index }))),
  );
  candidates.sort((a, b) => a.form.tier - b.form.tier); // stable: document order inside a tier
  for (const { section, part, form, index } of candidates) {
    const current = chosen.get(part);
    if (index > 0 && current === undefined) continue; // a larger form only replaces a shown one
    const replaced = current === undefined ? 0 : size(part.forms[current]?.text ?? '');
    const head = opened.has(section) ? 0 : size((section.head ?? '') + (section.tail ?? ''));
    const extra = head + size(form.text) - replaced;
    if (part.omitted !== undefined && used + extra > budget) continue;
    chosen.set(part, index);
    used += extra;
    opened.add(section);
  }
  const counts = new Map<string, number>();
  for (const part of parts) {
    const index = chosen.get(part);
    if (index === undefined) increment(counts, part.omitted);
    else if (index < part.forms.length - 1) increment(counts, part.shortened);
  }
  const text = compose((part) => {
    const index = chosen.get(part);
    return index === undefined ? undefined : part.forms[index]?.text;
  }, opts.note(counts));
  return size(text) <= opts.limit ? text : cutText(text, opts.limit, size);
}
