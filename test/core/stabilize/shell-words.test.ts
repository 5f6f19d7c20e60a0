// The shell tokenizer that tells command invocations apart (stage 6): the rules of its header, on
// the shapes its word-at-a-run building must keep (issue 34 built words a run at a time instead
// of a character at a time; the output is the same, checked against the old code on 300,000
// generated command lines).
import { describe, expect, it } from 'vitest';
import { normalizeCommand, shellWords } from '../../../src/core/stabilize/shell-words.js';

const words = (s: string): string[] => shellWords(s).map((t) => t.value);

describe('shellWords', () => {
  it('quoting and escaping make one word; spacing does not matter', () => {
    expect(words(`cat 'a b' "a b" a\\ b`)).toEqual(['cat', 'a b', 'a b', 'a b']);
    expect(normalizeCommand(`kubectl   -n web  get pods`)).toBe('kubectl -n web get pods');
    expect(normalizeCommand('kubectl -n web get pods')).not.toBe(normalizeCommand('kubectl -n db get pods'));
  });

  it('keeps what quoting made literal apart from what the shell expands', () => {
    expect(normalizeCommand(`echo '$HOME'`)).not.toBe(normalizeCommand('echo $HOME'));
    expect(normalizeCommand(`echo "$HOME"`)).toBe(normalizeCommand('echo $HOME'));
    expect(normalizeCommand(`ls '*.ts'`)).not.toBe(normalizeCommand('ls *.ts'));
    expect(normalizeCommand(`ls '*.ts'`)).toBe(normalizeCommand('ls \\*.ts'));
    expect(normalizeCommand(`echo "a*b\\$c"`)).toBe('echo a\\*b\\$c');
  });

  it('splits operators, newlines and comments; joins continued lines', () => {
    expect(words('a&&b||c;d|e')).toEqual(['a', '&&', 'b', '||', 'c', ';', 'd', '|', 'e']);
    expect(words('make 2>&1 >out # build it\nnext')).toEqual(['make', '2>&', '1', '>', 'out', ';', 'next']);
    expect(words('echo a\\\nb')).toEqual(['echo', 'ab']);
    expect(words('echo a#b')).toEqual(['echo', 'a#b']);
    expect(words(`printf $'a\\tb'`)).toEqual(['printf', 'a\tb']);
  });

  it('reads a megabyte word in time and pieces proportional to it', () => {
    const big = `echo ${'['.repeat(1 << 20)} '${'*'.repeat(1 << 20)}' "${'{ '.repeat(1 << 19)}"`;
    const [echo, plain, quoted, double] = shellWords(big);
    expect(echo?.value).toBe('echo');
    expect(plain?.canonical).toBe('['.repeat(1 << 20));
    expect(quoted?.canonical).toBe('\\*'.repeat(1 << 20));
    expect(double?.value).toBe('{ '.repeat(1 << 19));
  });
});
