// Diagnostics of the JSON parser. Built only on the error path, so positions are computed from
// scratch here and the scanner stays lean. No message quotes the input: it may hold PII.
import type { Diagnostic } from '../types.js';
import { diagnostic } from '../diagnostics.js';
import { tooManyRecords } from '../text/jsonl.js';
import { LineIndex } from '../text/line-index.js';
import { formatJsonPath } from './path.js';

/** Thrown inside the parser to unwind to parseJson; never escapes it. */
export class JsonFailure {
  constructor(readonly diagnostic: Diagnostic) {}
}

export type Unfinished = 'an object' | 'an array' | 'a string' | 'a number' | 'a literal';

const SYNTAX_HINT = 'Fix the JSON at this position; the input must be strict JSON (RFC 8259).';

export class JsonErrors {
  private lineIndex: LineIndex | undefined;

  /**
   * @param lineOffset added to the 1-based line within `text` (JSONL records start at their file line)
   * @param unit what the messages call the input: a whole file or one JSONL record
   */
  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly lineOffset: number,
    private readonly unit: 'file' | 'record',
  ) {}

  at(code: string, offset: number, message: string, hint: string): JsonFailure {
    const { line, column } = this.position(offset);
    return new JsonFailure(diagnostic('error', code, { file: this.file, line, column }, message, hint));
  }

  empty(): JsonFailure {
    return this.at(
      'empty',
      0,
      `The ${this.unit} holds no JSON value: it is empty or only whitespace.`,
      `Check that the ${this.unit} was written completely; it must hold one JSON value.`,
    );
  }

  truncated(what: Unfinished, openedAt: number): JsonFailure {
    // Point just after the last non-blank character: that is where the input was cut.
    let end = this.text.length;
    while (end > 0 && ' \t\n\r'.includes(this.text.charAt(end - 1))) end--;
    const opened = this.position(openedAt);
    return this.at(
      'truncated',
      end,
      `The ${this.unit} ends inside ${what} that starts at line ${opened.line}, column ${opened.column}: ` +
        'it may have been cut off.',
      this.unit === 'file'
        ? 'Check that the file was written completely (an interrupted export leaves it cut off) and export it again.'
        : 'Check that the record was written completely; an interrupted session can leave a partial last line.',
    );
  }

  trailingContent(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      'Unexpected content after the end of the JSON value.',
      this.unit === 'file'
        ? 'A .json file holds exactly one value; remove what follows it, or save one value per line as .jsonl.'
        : 'A JSONL line holds exactly one value; put each value on its own line.',
    );
  }

  tooManyElements(offset: number, max: number): JsonFailure {
    const { line, column } = this.position(offset);
    return new JsonFailure(tooManyRecords({ file: this.file, line, column }, max, 'elements'));
  }

  /** An object with more members than the record cap: as much memory as that many records. */
  tooManyMembers(offset: number, max: number): JsonFailure {
    return this.at(
      'too-many-records',
      offset,
      `This object holds more than ${max} members; this member is the first one over the limit. ` +
        'The transcript is not read: part of it would be a context the agent never had.',
      'Raise the limit with --max-records (the Action input max-records), or split the transcript into smaller files.',
    );
  }

  tooManyContainers(offset: number, max: number): JsonFailure {
    const { line, column } = this.position(offset);
    return new JsonFailure(tooManyRecords({ file: this.file, line, column }, max, 'containers'));
  }

  tooDeep(offset: number, maxDepth: number): JsonFailure {
    return this.at(
      'too-deep',
      offset,
      `The JSON nests deeper than ${maxDepth} levels.`,
      'Transcripts never nest this deep: check that this is the right file and that it was exported correctly.',
    );
  }

  duplicateKey(offset: number, path: readonly (string | number)[]): JsonFailure {
    return this.at(
      'duplicate-key',
      offset,
      `Duplicate key at ${formatJsonPath(path)}: the object already has a member with this key.`,
      'Remove or rename one of the two members; JSON readers disagree on which value wins.',
    );
  }

  trailingComma(offset: number, container: 'object' | 'array'): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      `Trailing comma before the end of an ${container}.`,
      `Remove the comma after the last ${container === 'object' ? 'member' : 'element'}.`,
    );
  }

  expectedColon(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      "Expected ':' after an object key.",
      'Separate each key from its value with a colon.',
    );
  }

  expectedMemberEnd(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      this.text.charAt(offset) === '"'
        ? "Expected ',' or '}' after an object member: a comma is missing between two members."
        : "Expected ',' or '}' after an object member.",
      'Separate members with commas and close the object with a brace.',
    );
  }

  expectedElementEnd(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      "Expected ',' or ']' after an array element.",
      'Separate elements with commas and close the array with a bracket.',
    );
  }

  keyExpected(offset: number): JsonFailure {
    const ch = this.text.charAt(offset);
    if (ch === "'") {
      return this.at(
        'json-syntax',
        offset,
        'Single-quoted key: JSON keys are double-quoted strings.',
        'Use double quotes around keys and strings.',
      );
    }
    return this.at(
      'json-syntax',
      offset,
      ch === '}' || ch === ','
        ? 'Expected an object key (a double-quoted string).'
        : 'Expected an object key: keys must be double-quoted strings.',
      'Write each member as "key": value, with the key in double quotes.',
    );
  }

  valueExpected(offset: number): JsonFailure {
    const text = this.text;
    const ch = text.charAt(offset);
    if (ch === "'") {
      return this.at(
        'json-syntax',
        offset,
        'Single-quoted string: JSON strings are double-quoted.',
        'Use double quotes around strings.',
      );
    }
    if (text.startsWith('NaN', offset) || text.startsWith('Infinity', offset)) return this.nonFinite(offset);
    if (ch === '+') {
      return this.at(
        'json-syntax',
        offset,
        "Invalid number: JSON numbers may not start with '+'.",
        "Remove the '+' sign.",
      );
    }
    if (ch === '/') {
      return this.at(
        'json-syntax',
        offset,
        'Comments are not allowed in JSON.',
        'Remove the comment; strict JSON has no comment syntax.',
      );
    }
    if (ch === '.') {
      return this.at(
        'json-syntax',
        offset,
        'Invalid number: a digit must come before the decimal point.',
        'Write 0.5, not .5.',
      );
    }
    if (ch === ',' || ch === '}' || ch === ']' || ch === ':') {
      return this.at('json-syntax', offset, 'Expected a value.', SYNTAX_HINT);
    }
    return this.at('json-syntax', offset, 'Unexpected character where a value was expected.', SYNTAX_HINT);
  }

  nonFinite(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      'NaN and Infinity are not JSON numbers.',
      'Write null (or a string) instead; Python writes them unless json.dumps gets allow_nan=False.',
    );
  }

  badNumber(offset: number, problem: string): JsonFailure {
    return this.at('json-syntax', offset, `Invalid number: ${problem}.`, SYNTAX_HINT);
  }

  leadingZero(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      'Invalid number: leading zeros are not allowed.',
      'Write the number without leading zeros, or as a string if it is an identifier.',
    );
  }

  badLiteral(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      'Invalid literal: expected true, false or null.',
      'Literals are lower-case true, false and null; put text in double quotes.',
    );
  }

  controlChar(offset: number, code: number): JsonFailure {
    const what =
      code === 0x0a || code === 0x0d
        ? 'an unescaped line break'
        : `an unescaped control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
    return this.at(
      'json-syntax',
      offset,
      `A string contains ${what}.`,
      'Escape control characters in strings (\\n, \\t, \\u0000…); a line break inside a string can also mean a missing closing quote.',
    );
  }

  badEscape(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      'Invalid escape sequence in a string.',
      'Only \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX are JSON escapes; write a literal backslash as \\\\.',
    );
  }

  badUnicodeEscape(offset: number): JsonFailure {
    return this.at(
      'json-syntax',
      offset,
      'Invalid \\u escape in a string: four hexadecimal digits must follow \\u.',
      SYNTAX_HINT,
    );
  }

  private position(offset: number): { line: number; column: number } {
    this.lineIndex ??= new LineIndex(this.text);
    const { line, column } = this.lineIndex.position(offset);
    return { line: line + this.lineOffset, column };
  }
}
