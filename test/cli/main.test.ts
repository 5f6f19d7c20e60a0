import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { main, packageVersion, runCli } from '../../src/cli/main.js';
import { UsageError, parseOptions } from '../../src/cli/args.js';
import type { CliIO, Command } from '../../src/cli/command.js';
import { fakeIO } from './fake-io.js';

function fake(path: string[], run: Command['run'] = async () => 0): Command & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    path,
    summary: `does ${path.join(' ')}`,
    help: `Usage: context-stability ${path.join(' ')} [--flag]`,
    calls,
    run: async (args: string[], io: CliIO) => {
      calls.push(args);
      return run(args, io);
    },
  };
}

describe('runCli', () => {
  it('lists every command for --help, -h and help, exit 0', async () => {
    const commands = [fake(['alpha']), fake(['group', 'one']), fake(['group', 'two'])];
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const io = fakeIO('/');
      expect(await runCli(argv, io, commands)).toBe(0);
      expect(io.out()).toContain('Usage: context-stability <command>');
      expect(io.out()).toMatch(/alpha\s+does alpha/);
      expect(io.out()).toMatch(/group one\s+does group one/);
      expect(io.out()).toMatch(/group two\s+does group two/);
      expect(io.err()).toBe('');
    }
  });

  it('prints usage on stderr and exits 2 without arguments', async () => {
    const io = fakeIO('/');
    expect(await runCli([], io, [fake(['alpha'])])).toBe(2);
    expect(io.err()).toContain('Commands:');
    expect(io.out()).toBe('');
  });

  it('routes to the command with the longest matching path and passes the rest', async () => {
    const one = fake(['group', 'one'], async () => 1);
    const alpha = fake(['alpha']);
    const io = fakeIO('/');
    expect(await runCli(['group', 'one', 'x', '--flag'], io, [alpha, one])).toBe(1);
    expect(one.calls).toEqual([['x', '--flag']]);
    expect(alpha.calls).toEqual([]);
  });

  it("prints a command's help for --help anywhere before --, without running it", async () => {
    const alpha = fake(['alpha']);
    for (const argv of [
      ['alpha', '--help'],
      ['alpha', 'file.json', '-h'],
      ['help', 'alpha'],
    ]) {
      const io = fakeIO('/');
      expect(await runCli(argv, io, [alpha])).toBe(0);
      expect(io.out()).toBe('Usage: context-stability alpha [--flag]\n');
    }
    const io = fakeIO('/');
    await runCli(['alpha', '--', '--help'], io, [alpha]);
    expect(alpha.calls).toEqual([['--', '--help']]);
  });

  it('rejects an unknown command with a suggestion and exit 2', async () => {
    const io = fakeIO('/');
    expect(await runCli(['alpah'], io, [fake(['alpha'])])).toBe(2);
    expect(io.err()).toBe(
      "context-stability: Unknown command 'alpah'. Did you mean 'alpha'?\nRun 'context-stability --help' for usage.\n",
    );
  });

  it('rejects an unknown top-level option with exit 2', async () => {
    const io = fakeIO('/');
    expect(await runCli(['--verbose'], io, [fake(['alpha'])])).toBe(2);
    expect(io.err()).toContain('Unknown option --verbose');
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it('lists the sub-commands of a group given alone or with an unknown sub-command', async () => {
    const commands = [fake(['group', 'one']), fake(['group', 'two'])];
    let io = fakeIO('/');
    expect(await runCli(['group'], io, commands)).toBe(2);
    expect(io.err()).toContain("'group' needs a sub-command");
    expect(io.err()).toContain('group one');
    io = fakeIO('/');
    expect(await runCli(['group', 'on'], io, commands)).toBe(2);
    expect(io.err()).toContain("Did you mean 'group one'?");
    io = fakeIO('/');
    expect(await runCli(['group', '--help'], io, commands)).toBe(0);
    expect(io.out()).toContain('context-stability group <command>');
  });

  it('turns a UsageError into a message, a help hint and exit 2', async () => {
    const failing = fake(['alpha'], async (args) => {
      parseOptions(args, { flag: { type: 'boolean' } });
      throw new UsageError('alpha needs a FILE.');
    });
    let io = fakeIO('/');
    expect(await runCli(['alpha', '--flga'], io, [failing])).toBe(2);
    expect(io.err()).toBe(
      "context-stability: Unknown option --flga. Did you mean --flag?\nRun 'context-stability alpha --help' for usage.\n",
    );
    io = fakeIO('/');
    expect(await runCli(['alpha'], io, [failing])).toBe(2);
    expect(io.err()).toContain('alpha needs a FILE.');
  });

  it('reports an unexpected exception without its message or stack (the message may quote input)', async () => {
    const crashing = fake(['alpha'], async () => {
      throw new TypeError('cannot read SECRET-CANARY-123');
    });
    let io = fakeIO('/');
    expect(await runCli(['alpha'], io, [crashing])).toBe(2);
    expect(io.err()).toContain('internal error (TypeError)');
    expect(io.err()).not.toContain('SECRET-CANARY-123');
    io = fakeIO('/', { CONTEXT_STABILITY_DEBUG: '1' });
    await runCli(['alpha'], io, [crashing]);
    expect(io.err()).toContain('SECRET-CANARY-123');
  });

  it('prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const io = fakeIO('/');
    expect(await runCli(['--version'], io, [])).toBe(0);
    expect(io.out()).toBe(`${pkg.version}\n`);
    expect(packageVersion()).toBe(pkg.version);
  });
});

describe('main', () => {
  it('registers inspect and the policy commands', async () => {
    const io = fakeIO('/');
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^ {2}inspect /m);
    expect(io.out()).toMatch(/^ {2}policy validate /m);
    expect(io.out()).toMatch(/^ {2}policy print-default /m);
  });
});
