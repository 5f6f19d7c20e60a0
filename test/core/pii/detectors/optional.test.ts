import { describe, expect, it } from 'vitest';
import {
  OPTIONAL_DETECTORS,
  OPTIONAL_PII_TYPES,
  isOptionalPiiType,
} from '../../../../src/core/pii/detectors/optional.js';
import { BUILTIN_PII_TYPES } from '../../../../src/core/pii/types.js';

describe('optional detectors', () => {
  it('has one factory per type, whose detector reports that type', () => {
    expect(Object.keys(OPTIONAL_DETECTORS).sort()).toEqual([...OPTIONAL_PII_TYPES].sort());
    for (const type of OPTIONAL_PII_TYPES) expect(OPTIONAL_DETECTORS[type]().type).toBe(type);
  });

  it('does not collide with the built-in types', () => {
    for (const type of OPTIONAL_PII_TYPES)
      expect((BUILTIN_PII_TYPES as readonly string[]).includes(type)).toBe(false);
    expect(new Set(OPTIONAL_PII_TYPES).size).toBe(OPTIONAL_PII_TYPES.length);
  });

  it('isOptionalPiiType', () => {
    expect(isOptionalPiiType('mac')).toBe(true);
    expect(isOptionalPiiType('email')).toBe(false);
  });

  it('finds nothing in ordinary agent-transcript text', () => {
    const text = [
      'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)',
      'uuid 123e4567-e89b-12d3-a456-426614174000, version 1.2.3, build 20240610',
      'at 2024-06-10T12:30:45.123Z src/index.ts:12:34 listening on localhost:8080',
      'order #123456789, part 3ABC-1234, color #1a2b3c, ts 1718000000123',
      'GET https://api.example.com/v1/items?page_token=abc&max_tokens=256&code=xyz',
      'Run `npm test` with NODE_ENV=test; exit code 0; 12 passed, 3 skipped.',
    ].join('\n');
    for (const type of OPTIONAL_PII_TYPES)
      expect([type, OPTIONAL_DETECTORS[type]().find(text)]).toEqual([type, []]);
  });
});
