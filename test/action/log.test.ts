import { describe, expect, it } from 'vitest';
import {
  escapeLogLine,
  logGroup,
  logLine,
  logUntrusted,
  stopToken,
  wrapUntrusted,
} from '../../src/github/log.js';

function recorder(): { write: (text: string) => void; text: () => string } {
  const chunks: string[] = [];
  return { write: (t) => void chunks.push(t), text: () => chunks.join('') };
}

describe('stopToken', () => {
  it('is random per call and never occurs in the text it guards', () => {
    const a = stopToken('');
    expect(a).toMatch(/^context-stability-[0-9a-f]{32}$/);
    expect(stopToken('')).not.toBe(a);
    // A random source that first returns the very token the text holds: the next draw is used.
    const draws = [Buffer.alloc(16, 0xab), Buffer.alloc(16, 0x01)];
    const text = `::context-stability-${'ab'.repeat(16)}::`;
    expect(stopToken(text, () => draws.shift() as Buffer)).toBe(`context-stability-${'01'.repeat(16)}`);
  });
});

describe('wrapUntrusted', () => {
  it('puts the text between stop-commands and the resume command, ending lines properly', () => {
    expect(wrapUntrusted('::set-output name=x::y', 'TOKEN')).toBe(
      '::stop-commands::TOKEN\n::set-output name=x::y\n::TOKEN::\n',
    );
    expect(wrapUntrusted('a\nb\n', 'T')).toBe('::stop-commands::T\na\nb\n::T::\n');
  });

  it('logUntrusted writes nothing for empty text and a fresh block otherwise', () => {
    const out = recorder();
    logUntrusted('', out.write);
    expect(out.text()).toBe('');
    logUntrusted('##[error]x', out.write);
    expect(out.text()).toMatch(/^::stop-commands::(context-stability-[0-9a-f]{32})\n##\[error\]x\n::\1::\n$/);
  });
});

describe('escapeLogLine', () => {
  it('defuses a leading command, any ##[ and line breaks; leaves plain text alone', () => {
    expect(escapeLogLine('Report written to /tmp/r.json')).toBe('Report written to /tmp/r.json');
    expect(escapeLogLine('  ::add-mask::x')).toBe('  %3A:add-mask::x');
    expect(escapeLogLine('a ##[error] b')).toBe('a ##%5Berror] b');
    expect(escapeLogLine('one\n::error::two\r')).toBe('one%0A::error::two%0D');
    expect(escapeLogLine('50%')).toBe('50%25');
  });

  it('logLine writes one escaped line', () => {
    const out = recorder();
    logLine('::warning::x\nnext', out.write);
    expect(out.text()).toBe('%3A:warning::x%0Anext\n');
  });
});

describe('logGroup', () => {
  it('wraps the untrusted body in a stop-commands block inside a group', () => {
    const out = recorder();
    logGroup('report 100%', '::endgroup::\nbody', out.write);
    const lines = out.text().split('\n');
    expect(lines[0]).toBe('::group::report 100%25');
    expect(lines[1]).toMatch(/^::stop-commands::context-stability-/);
    expect(lines.slice(2, 4)).toEqual(['::endgroup::', 'body']);
    expect(lines[4]).toBe(`::${lines[1]?.split('::')[2]}::`);
    expect(lines[5]).toBe('::endgroup::');
  });

  it('writes nothing for an empty body', () => {
    const out = recorder();
    logGroup('t', '', out.write);
    expect(out.text()).toBe('');
  });
});
