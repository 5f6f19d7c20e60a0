// The watchdog's limit (issue 34): optional and out of the policy hash, so goldens never change with it;
// 300 seconds when absent, 0 turns it off, and a bad value is reported at its line.
import { describe, expect, it } from 'vitest';
import { policyHash } from '../../../src/core/golden/golden.js';
import { DEFAULT_POLICY, parsePolicy, watchdogSeconds } from '../../../src/core/policy/index.js';

function parsed(text: string) {
  const result = parsePolicy(text, { file: 'p.yml' });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.policy;
}

describe('watchdog.max_seconds', () => {
  it('is 300 seconds when the policy does not set it, and the default policy keeps its hash', () => {
    expect(watchdogSeconds(DEFAULT_POLICY)).toBe(300);
    expect(DEFAULT_POLICY).not.toHaveProperty('watchdog');
    expect(policyHash(parsed('budget: 8000\n'))).toBe(policyHash(DEFAULT_POLICY));
  });

  it('is left out of the policy hash: a limit changes how long a run may take, not its output', () => {
    const hash = policyHash(parsed('budget: 8000\n'));
    expect(policyHash(parsed('budget: 8000\nwatchdog: { max_seconds: 5 }\n'))).toBe(hash);
    expect(policyHash(parsed('budget: 8000\nwatchdog: { max_seconds: 0 }\n'))).toBe(hash);
    expect(policyHash(parsed('budget: 7000\nwatchdog: { max_seconds: 5 }\n'))).not.toBe(hash);
  });

  it('takes a number of seconds, and 0 for no limit', () => {
    expect(watchdogSeconds(parsed('watchdog: { max_seconds: 5 }\n'))).toBe(5);
    expect(watchdogSeconds(parsed('watchdog: { max_seconds: 0 }\n'))).toBe(0);
    expect(watchdogSeconds(parsed('watchdog: {}\n'))).toBe(300);
  });

  it.each(['-1', '1.5', '86401', 'soon'])('refuses %s at its line', (value) => {
    const result = parsePolicy(`budget: 8000\nwatchdog:\n  max_seconds: ${value}\n`, { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ file: 'p.yml', line: 3, severity: 'error' });
  });

  it('names a misspelt key', () => {
    const result = parsePolicy('watchdog:\n  max_second: 5\n', { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.message).join('\n')).toContain('max_seconds');
  });
});
