import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { userRuleDetector } from '../../../../src/core/pii/detectors/user-rule.js';
import { matchedTexts } from '../helpers.js';

describe('user rule detector', () => {
  it('reports every match of the compiled rule, typed by the rule name', () => {
    const d = userRuleDetector({ name: 'employee_id', re: RE2JS.compile('EMP-\\d{6}') });
    const text = 'EMP-123456 met EMP-654321; EMP-12 is too short';
    expect(d.type).toBe('employee_id');
    expect(d.find(text).map((m) => m.type)).toEqual(['employee_id', 'employee_id']);
    expect(matchedTexts(d.find, text)).toEqual(['EMP-123456', 'EMP-654321']);
  });

  it('gives UTF-16 offsets after astral characters', () => {
    const d = userRuleDetector({ name: 'x', re: RE2JS.compile('EMP-\\d+') });
    const text = '😀😀 EMP-1';
    expect(d.find(text)).toEqual([{ type: 'x', start: 5, end: 10 }]);
  });

  it('skips empty matches of rules that can match nothing', () => {
    const d = userRuleDetector({ name: 'x', re: RE2JS.compile('\\d*') });
    expect(matchedTexts(d.find, 'ab12c3')).toEqual(['12', '3']);
  });

  it('honours compile flags', () => {
    const d = userRuleDetector({ name: 'x', re: RE2JS.compile('secret-\\w+', RE2JS.CASE_INSENSITIVE) });
    expect(matchedTexts(d.find, 'SECRET-abc')).toEqual(['SECRET-abc']);
  });
});
