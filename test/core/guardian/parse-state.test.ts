import { describe, expect, it } from 'vitest';
import { parseTaskState } from '../../../src/core/guardian/parse-state.js';
import { serializeState } from '../../../src/core/guardian/state.js';
import { fullState } from './helpers.js';

const FILE = 'task-state.json';
const SECRET = 'dana.fixture@example.org';

function problems(text: string) {
  const r = parseTaskState(text, FILE);
  if (r.kind === 'valid') throw new Error('expected a problem');
  return r;
}

describe('parseTaskState', () => {
  it('calls text that is not JSON malformed, at its line and column, without quoting it', () => {
    const r = problems(`{\n  "goal": "${SECRET}",\n  oops\n}`);
    expect(r.kind).toBe('malformed');
    expect(r.diagnostics[0]).toMatchObject({ file: FILE, line: 3 });
    expect(JSON.stringify(r.diagnostics)).not.toContain(SECRET);
    expect(r.diagnostics[0]?.hint).toContain('--archive');
  });

  it('calls a JSON array malformed', () => {
    expect(problems('[1, 2]').kind).toBe('malformed');
  });

  it('calls an object without the schema marker legacy', () => {
    const r = problems(JSON.stringify({ phase: 'build', next_action: 'go', touched_files: [SECRET] }));
    expect(r.kind).toBe('legacy');
    expect(r.diagnostics[0]?.code).toBe('guardian-state-legacy');
    expect(JSON.stringify(r.diagnostics)).not.toContain(SECRET);
  });

  it('calls an object with another schema marker legacy', () => {
    const obj = { ...fullState(), schema: 'context-guardian/task-state@0' };
    expect(problems(JSON.stringify(obj)).kind).toBe('legacy');
  });

  it('calls our shape with a missing required field incomplete and names the field', () => {
    const obj: Record<string, unknown> = { ...fullState() };
    delete obj.next_action;
    const r = problems(JSON.stringify(obj, null, 2));
    expect(r.kind).toBe('incomplete');
    expect(r.diagnostics.map((d) => d.message)).toContain('$.next_action is missing.');
    expect(r.diagnostics[0]).toMatchObject({ line: 1, column: 1, code: 'guardian-state-field' });
  });

  it('positions a bad nested value at its enclosing object and does not quote the value', () => {
    const obj = { ...fullState(), last_action: { summary: 'x', outcome: SECRET } };
    const r = problems(JSON.stringify(obj, null, 2));
    expect(r.kind).toBe('incomplete');
    const d = r.diagnostics[0];
    expect(d?.message).toBe('$.last_action.outcome must be "success" or "failure" or "none".');
    expect(d?.line).toBe(6);
    expect(JSON.stringify(r.diagnostics)).not.toContain(SECRET);
  });

  it('refuses unknown fields, naming them only when they are plain identifiers', () => {
    const obj = { ...fullState(), extra_notes: 'x', [SECRET]: 1 };
    const r = problems(JSON.stringify(obj));
    expect(r.kind).toBe('incomplete');
    expect(r.diagnostics[0]?.message).toBe('$ has unknown fields extra_notes, […].');
  });

  it('accepts a state it wrote', () => {
    expect(parseTaskState(serializeState(fullState()), FILE).kind).toBe('valid');
  });
});
