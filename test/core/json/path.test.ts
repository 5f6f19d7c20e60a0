import { describe, expect, it } from 'vitest';
import { formatJsonPath, isShowableKey } from '../../../src/core/json/path.js';

describe('formatJsonPath', () => {
  it('writes indices and identifier keys, hiding keys that may be data', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['messages', 3, 'content'])).toBe('$.messages[3].content');
    expect(formatJsonPath(['tool-calls', 0, 'jane@example.com', '_ok', '$x1'])).toBe('$[…][0][…]._ok.$x1');
  });

  it('shows only plain identifiers shorter than 40 characters', () => {
    expect(isShowableKey('a'.repeat(39))).toBe(true);
    expect(isShowableKey('a'.repeat(40))).toBe(false);
    for (const key of ['', '1abc', 'a b', 'é', 'SECRET-CANARY-123', 'a.b', '[0]'])
      expect(isShowableKey(key), key).toBe(false);
  });
});
