// Stable JSON serialization for goldens and machine reports (DESIGN §6): the same value always
// gives the same bytes, on every platform and run, so a golden diff only ever shows real change.
// Object keys are sorted by UTF-16 code unit (the order of `Array.prototype.sort()`, independent
// of locale); arrays keep their order because order is meaningful there.

const INDENT = '  ';

/**
 * `value` as JSON: object keys sorted by code unit, arrays in order, 2-space indent, LF line ends
 * and exactly one trailing newline. Properties whose value is `undefined` are omitted (as
 * `JSON.stringify` does); `-0` is written as `0`. Throws a TypeError on what JSON cannot hold
 * faithfully: non-finite numbers, bigints, functions, symbols, `undefined` array elements and
 * cycles. Strings are escaped exactly as `JSON.stringify` escapes them (lone surrogates as \u).
 */
export function stableStringify(value: unknown): string {
  return `${write(value, '', [])}\n`;
}

function write(value: unknown, indent: string, stack: object[]): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('stableStringify: a non-finite number cannot be written as JSON.');
      return Object.is(value, -0) ? '0' : JSON.stringify(value);
    case 'object':
      return writeObject(value, indent, stack);
    default:
      throw new TypeError(`stableStringify: a ${typeof value} cannot be written as JSON.`);
  }
}

function writeObject(value: object, indent: string, stack: object[]): string {
  if (stack.includes(value)) throw new TypeError('stableStringify: the value contains a cycle.');
  stack.push(value);
  const inner = indent + INDENT;
  let out: string;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => {
      if (item === undefined) throw new TypeError('stableStringify: an array element is undefined.');
      return inner + write(item, inner, stack);
    });
    out = items.length === 0 ? '[]' : `[\n${items.join(',\n')}\n${indent}]`;
  } else {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      members.push(`${inner}${JSON.stringify(key)}: ${write(member, inner, stack)}`);
    }
    out = members.length === 0 ? '{}' : `{\n${members.join(',\n')}\n${indent}}`;
  }
  stack.pop();
  return out;
}
