// Colour on a terminal, decided once here and applied at the CLI edge: the renderers (src/core)
// stay pure and print plain text; the commands style known line shapes of their text output
// (outcome labels, `error[…]`/`warning[…]`, summary lines) just before it is written.
//
// Colour is on when the stream is a TTY, NO_COLOR is unset or empty, TERM is not `dumb` and the
// run is not a GitHub Actions step; FORCE_COLOR overrides all of that: set to anything but `0`
// or `false` (also empty, as Node and supports-color read it) it turns colour on even without a
// TTY or with NO_COLOR, and FORCE_COLOR=0 (or false) turns it off. Machine output (JSON, Markdown,
// GitHub annotations, a provider request) is never styled, whatever the variables say.
import { styleText } from 'node:util';
import type { CliIO } from './command.js';

export type StreamName = 'stdout' | 'stderr';

type Env = CliIO['env'];

/** Whether text written to a stream that is (or is not) a terminal gets colour. */
export function colourEnabled(env: Env, isTTY: boolean): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  if (env['GITHUB_ACTIONS'] === 'true') return false;
  if (env['TERM'] === 'dumb') return false;
  return isTTY;
}

type Format = Extract<Parameters<typeof styleText>[0], string>;

/** The tones the CLI uses; each maps to `util.styleText` formats. */
export type Tone = 'pass' | 'fail' | 'warn' | 'new' | 'dim' | 'strong';

const FORMATS = {
  pass: ['green'],
  fail: ['red', 'bold'],
  warn: ['yellow'],
  new: ['cyan'],
  dim: ['dim'],
  strong: ['bold'],
} as const satisfies Record<Tone, readonly Format[]>;

export interface Style {
  readonly enabled: boolean;
  paint(tone: Tone, text: string): string;
}

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    // validateStream: false — the decision is ours (colourEnabled); Node ≥ 20.19 would otherwise
    // look at process.stdout, not at the stream this text goes to.
    paint: (tone, text) =>
      enabled && text !== '' ? styleText([...FORMATS[tone]], text, { validateStream: false }) : text,
  };
}

/** The style of one of the command's streams, from the injected env and TTY flags. */
export function styleFor(io: CliIO, stream: StreamName): Style {
  return makeStyle(colourEnabled(io.env, io.isTTY?.[stream] === true));
}

/** `file:line[:column]: error[code]` (diagnostics, report violations): the severity and code. */
const SEVERITY = /^(\s*\S.*?:\d+(?::\d+)?: )(error|warning)(\[[^\]\n]*\])/;

/** Styles the `error[…]`/`warning[…]` of a diagnostic-shaped line; other lines stay as they are. */
export function styleSeverity(line: string, style: Style): string {
  if (!style.enabled) return line;
  const match = SEVERITY.exec(line);
  if (!match) return line;
  const [whole, before = '', severity = '', code = ''] = match;
  const tone: Tone = severity === 'error' ? 'fail' : 'warn';
  return `${before}${style.paint(tone, `${severity}${code}`)}${line.slice(whole.length)}`;
}

/** Each line of `text` through `styleLine`, line ends kept. */
export function styleLines(text: string, style: Style, styleLine: (line: string) => string): string {
  if (!style.enabled) return text;
  return text
    .split('\n')
    .map((line) => (line === '' ? line : styleLine(line)))
    .join('\n');
}

/** `file:line[:column]: check (error): message` (stabilize's violation lines): the severity. */
const CHECK_SEVERITY = /^(\s*\S.*?:\d+(?::\d+)?: [\w.-]+ )\((error|warning)\)(: )/;

export function styleCheckSeverity(line: string, style: Style): string {
  if (!style.enabled) return line;
  const match = CHECK_SEVERITY.exec(line);
  if (!match) return line;
  const [whole, before = '', severity = '', after = ''] = match;
  const tone: Tone = severity === 'error' ? 'fail' : 'warn';
  return `${before}${style.paint(tone, `(${severity})`)}${after}${line.slice(whole.length)}`;
}

/** Text for stderr: diagnostics' and violations' severities styled (stderr is for people only). */
export function styleStderr(text: string, style: Style): string {
  return styleLines(text, style, (line) => styleCheckSeverity(styleSeverity(line, style), style));
}

/** The CliIO with stderr styled, for the router to hand every command. */
export function withStyledStderr(io: CliIO): CliIO {
  const style = styleFor(io, 'stderr');
  if (!style.enabled) return io;
  return { ...io, stderr: (text) => io.stderr(styleStderr(text, style)) };
}

const LABEL_TONES: readonly (readonly [string, Tone])[] = [
  ['DRIFT WARN', 'warn'],
  ['VIOLATIONS', 'fail'],
  ['DRIFT', 'fail'],
  ['ERROR', 'fail'],
  ['NEW', 'new'],
  ['PASS', 'pass'],
];

/** `N transcripts checked: …` (describeSummary): the last line of check, merge and view. */
const CHECK_SUMMARY = /^\d+ transcripts? checked: /;
const DIFF_START = /^ {2}unified diff \(/;
/** What follows a unified diff: the policy impact, the next transcript, the obsolete list, the summary. */
const DIFF_END =
  /^( {2}policy impact|Obsolete goldens|(PASS|DRIFT|NEW|VIOLATIONS|ERROR) |\d+ transcripts? checked: )/;

/**
 * The text report of `check`/`merge` (renderText) and `view`'s summary: outcome labels, severities,
 * the unified diff's +/- lines, and the summary line in the tone of the run's verdict.
 */
export function styleCheckText(text: string, style: Style, passed: boolean): string {
  let inDiff = false;
  return styleLines(text, style, (line) => {
    if (inDiff && DIFF_END.test(line)) inDiff = false;
    if (inDiff) {
      if (/^(\+\+\+|---) /.test(line)) return style.paint('strong', line);
      if (line.startsWith('@@')) return style.paint('new', line);
      if (line.startsWith('+')) return style.paint('pass', line);
      if (line.startsWith('-')) return style.paint('fail', line);
      return line;
    }
    if (DIFF_START.test(line)) {
      inDiff = true;
      return line;
    }
    if (CHECK_SUMMARY.test(line)) return style.paint(passed ? 'pass' : 'fail', line);
    for (const [label, tone] of LABEL_TONES) {
      if (line.startsWith(`${label} `)) return `${style.paint(tone, label)}${line.slice(label.length)}`;
    }
    return styleSeverity(line, style);
  });
}

const UPDATE_VERBS: readonly (readonly [RegExp, Tone])[] = [
  [/^wrote /, 'new'],
  [/^(updated|rewrote) /, 'warn'],
  [/^refused /, 'fail'],
  [/^(removed|obsolete) /, 'dim'],
];

/** `update`'s list: what it wrote, refused and removed, violations, and its summary line. */
export function styleUpdateText(text: string, style: Style, passed: boolean): string {
  return styleLines(text, style, (line) => {
    if (line.startsWith('update: ')) return style.paint(passed ? 'pass' : 'fail', line);
    for (const [verb, tone] of UPDATE_VERBS) {
      const match = verb.exec(line);
      if (match) return `${style.paint(tone, match[0].trimEnd())}${line.slice(match[0].trimEnd().length)}`;
    }
    return styleSeverity(line, style);
  });
}

const STATUS_TONES: Record<string, Tone> = { ok: 'pass', warning: 'warn', escalated: 'fail' };

/** `stabilize`'s summary: the status, the checks line, violations (`check (error):`) and events. */
export function styleStabilizeText(text: string, style: Style, passed: boolean): string {
  let first = true;
  return styleLines(text, style, (line) => {
    if (first) {
      first = false;
      const match = /: (ok|warning|escalated)$/.exec(line);
      if (match?.[1] !== undefined) {
        const status = match[1];
        return `${line.slice(0, match.index + 2)}${style.paint(STATUS_TONES[status] ?? 'strong', status)}`;
      }
      return line;
    }
    if (line.startsWith('checks: ')) return style.paint(passed ? 'pass' : 'fail', line);
    if (CHECK_SEVERITY.test(line)) return styleCheckSeverity(line, style);
    const event = /^(\s*)\[(safety)\]/.exec(line);
    if (event) return `${event[1] ?? ''}${style.paint('warn', '[safety]')}${line.slice(event[0].length)}`;
    return line;
  });
}
