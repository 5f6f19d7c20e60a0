// Writing to the job log without handing the runner a workflow command. The runner reads every
// stdout line that starts with `::` (after leading spaces) or holds `##[` as a command, so a
// transcript id like `::add-mask::…` or `##[error]` printed raw could set outputs, mask values or
// forge annotations. Text that may hold transcript-derived strings (ids, paths, masked content in
// unified diffs) goes out between `::stop-commands::<token>` and `::<token>::`, with a token drawn
// at random for each block so the text cannot guess it and end the block early; single lines of
// our own are escaped instead.
import { randomBytes } from 'node:crypto';
import { escapeData } from '../core/golden/render-github.js';

export type LogWrite = (text: string) => void;

const stdout: LogWrite = (text) => void process.stdout.write(text);

/** A token that does not occur in `text` (128 random bits: a retry is practically never needed). */
export function stopToken(text: string, random: (bytes: number) => Buffer = randomBytes): string {
  for (;;) {
    const token = `context-stability-${random(16).toString('hex')}`;
    if (!text.includes(token)) return token;
  }
}

/** `text` wrapped so that the runner processes no command in it; ends with a newline. */
export function wrapUntrusted(text: string, token: string = stopToken(text)): string {
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `::stop-commands::${token}\n${body}::${token}::\n`;
}

/** Writes text that may hold transcript-derived strings, with command processing stopped around it. */
export function logUntrusted(text: string, write: LogWrite = stdout): void {
  if (text === '') return;
  write(wrapUntrusted(text));
}

/**
 * One line that is safe outside a stop-commands block: line breaks, a leading `::` and any `##[`
 * are percent-escaped as the runner's own escaping does, so the line reads the same and runs nothing.
 */
export function escapeLogLine(text: string): string {
  return text
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A')
    .replace(/^(\s*):/, '$1%3A')
    .replace(/##\[/g, '##%5B');
}

/** A line of our own wording (it may name a path or count): escaped, then written. */
export function logLine(text: string, write: LogWrite = stdout): void {
  write(`${escapeLogLine(text)}\n`);
}

/** A collapsible group in the log: the title is ours (escaped as command data), the body is untrusted. */
export function logGroup(title: string, body: string, write: LogWrite = stdout): void {
  if (body === '') return;
  write(`::group::${escapeData(title)}\n`);
  logUntrusted(body, write);
  write('::endgroup::\n');
}
