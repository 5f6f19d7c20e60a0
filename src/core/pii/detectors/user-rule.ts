// `pii.rules`: user patterns, compiled by the policy loader to RE2JS (linear-time matching, so a
// policy cannot make the stabilizer hang). Every match counts; the type is the rule's name.

import type { RE2JS } from 're2js';
import type { Detector, PiiMatch } from '../types.js';

export interface CompiledRule {
  name: string;
  re: RE2JS;
}

export function userRuleDetector(rule: CompiledRule): Detector {
  return {
    type: rule.name,
    find(text: string): PiiMatch[] {
      const out: PiiMatch[] = [];
      const matcher = rule.re.matcher(text);
      // Matcher.find() steps past empty matches itself; they mask nothing and are skipped.
      while (matcher.find()) {
        const start = matcher.start();
        const end = matcher.end();
        if (end > start) out.push({ type: rule.name, start, end });
      }
      return out;
    },
  };
}
