// Policy text → plain value plus a locator from value paths back to line:column. YAML 1.2 is a
// superset of JSON, so one parser reads both and every diagnostic gets a real position.
// The yaml package's own messages quote the source around an error, so they are never passed
// on: each error code is reworded here.
import { Composer, LineCounter, Parser, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { CST, Document, Node as YamlNode, YAMLError } from 'yaml';
import { diagnostic, hasErrors } from '../diagnostics.js';
import type { Diagnostic, Severity } from '../types.js';
import { formatPath } from './format.js';

export interface Position {
  line: number;
  column: number;
}

/**
 * Where the value at `path` is written; `'key'` asks for its key instead. A missing value
 * resolves to the nearest enclosing node that exists, an empty value (`key:`) to its key.
 */
export type Locate = (path: readonly PropertyKey[], at?: 'value' | 'key') => Position;

export interface PolicySource {
  /** The parsed value; undefined when the text holds no document or could not be parsed. */
  value: unknown;
  /** The text holds nothing but whitespace and comments. */
  empty: boolean;
  /** Syntax errors, duplicate keys and ignored tags. */
  diagnostics: Diagnostic[];
  locate: Locate;
}

/** Expansions of aliases allowed while converting: stops "billion laughs" documents. */
const MAX_ALIAS_COUNT = 100;

/**
 * Deepest nesting accepted (a policy needs 4). The yaml composer recurses per level and relies
 * on catching stack overflow, which on Node 20 can abort the whole process; the token tree is
 * built without recursion, so its depth is checked before composing.
 */
const MAX_DEPTH = 32;

const SYNTAX_PROBLEMS: Readonly<Record<string, string>> = {
  BAD_INDENT: 'bad indentation, or a bracket or brace that is never closed',
  TAB_AS_INDENT: 'a tab is used for indentation',
  MISSING_CHAR: 'a closing quote, bracket or brace is missing',
  UNEXPECTED_TOKEN: 'unexpected character',
  MULTILINE_IMPLICIT_KEY: 'a key runs over more than one line (a missing `:` or an unclosed quote?)',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping starts on the line of its key',
  BAD_SCALAR_START: 'an unquoted value starts with a reserved character',
  BAD_DQ_ESCAPE: 'invalid escape sequence in a double-quoted string',
  MULTIPLE_ANCHORS: 'a node has more than one anchor',
  MULTIPLE_TAGS: 'a node has more than one tag',
  BAD_PROP_ORDER: 'an anchor or tag is misplaced',
  BAD_ALIAS: 'invalid alias',
  ALIAS_PROPS: 'an alias cannot have an anchor or tag',
  BAD_DIRECTIVE: 'invalid directive',
  BLOCK_IN_FLOW: 'a block value inside a flow collection',
  KEY_OVER_1024_CHARS: 'a key is longer than 1024 characters',
  NON_STRING_KEY: 'a key is not a plain value',
  BAD_COLLECTION_TYPE: 'a collection has the wrong type for its tag',
  TAG_RESOLVE_FAILED: 'the value does not fit its tag',
  RESOURCE_EXHAUSTION: 'the document is too large or too deeply nested',
};

function isJsonFile(file: string): boolean {
  return /\.json$/i.test(file);
}

function syntaxCode(file: string): string {
  return isJsonFile(file) ? 'json-syntax' : 'yaml-syntax';
}

function syntaxError(
  file: string,
  at: Position,
  problem: string,
  hint?: string,
  severity: Severity = 'error',
) {
  const language = isJsonFile(file) ? 'JSON' : 'YAML';
  const fix = isJsonFile(file)
    ? 'Fix the JSON at this position (a JSON linter shows the exact token).'
    : 'Fix the YAML at this position: indent with spaces, quote values that contain `: ` or start with a special character.';
  return diagnostic(
    severity,
    syntaxCode(file),
    { file, ...at },
    `${language} syntax: ${problem}.`,
    hint ?? fix,
  );
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

interface Walk {
  doc: Document;
  file: string;
  out: Diagnostic[];
  pos: (offset: number) => Position;
}

function nodeStart(walk: Walk, node: YamlNode): Position {
  return walk.pos(node.range?.[0] ?? 0);
}

// Duplicate keys and dangling aliases, found with the path they sit at so the message can name it.
// Recursion is safe: nesting was bounded by MAX_DEPTH before composing.
function checkNode(walk: Walk, node: unknown, path: PropertyKey[]): void {
  if (isAlias(node)) {
    if (node.resolve(walk.doc) === undefined) {
      walk.out.push(
        syntaxError(
          walk.file,
          nodeStart(walk, node),
          `${formatPath(path)} is an alias to an anchor that is not defined before it`,
          'Define the anchor (`&name`) earlier in the file, or write the value out.',
        ),
      );
    }
    return;
  }
  if (isMap(node)) {
    const first = new Map<string, YamlNode>();
    for (const pair of node.items) {
      const key = keyText(pair.key);
      if (key === undefined) continue;
      const keyNode = pair.key as YamlNode;
      const earlier = first.get(key);
      if (earlier) {
        walk.out.push(
          diagnostic(
            'error',
            'duplicate-key',
            { file: walk.file, ...nodeStart(walk, keyNode) },
            `duplicate key ${formatPath([...path, key])}: it is already set at line ${nodeStart(walk, earlier).line}.`,
            'Keep one of the two entries: a policy must say one thing per key.',
          ),
        );
      } else first.set(key, keyNode);
      checkNode(walk, pair.value, [...path, key]);
    }
    return;
  }
  if (isSeq(node)) node.items.forEach((item, index) => checkNode(walk, item, [...path, index]));
}

function yamlErrorToDiagnostic(
  error: YAMLError,
  file: string,
  pos: (offset: number) => Position,
  severity: Severity,
) {
  const at = pos(error.pos[0]);
  if (error.code === 'TAG_RESOLVE_FAILED' && severity === 'warning') {
    return diagnostic(
      'warning',
      'unknown-tag',
      { file, ...at },
      'unknown tag: it is ignored and the value is read as text.',
      'Remove the `!tag`: a policy needs no tags.',
    );
  }
  return syntaxError(
    file,
    at,
    SYNTAX_PROBLEMS[error.code] ?? 'the text cannot be parsed',
    undefined,
    severity,
  );
}

function makeLocator(doc: Document, pos: (offset: number) => Position): Locate {
  return (path, at = 'value') => {
    let node: unknown = doc.contents;
    let key: YamlNode | undefined;
    let parent: YamlNode | undefined;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        // The last entry wins when a key repeats, as it does in the parsed value.
        const pair = node.items.findLast((p) => keyText(p.key) === String(segment));
        if (!pair) return pos(node.range?.[0] ?? 0);
        parent = node;
        key = pair.key as YamlNode;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
        parent = node;
        key = undefined;
        node = node.items[segment];
      } else {
        const here = (node as YamlNode | null | undefined)?.range ?? parent?.range;
        return pos(here?.[0] ?? 0);
      }
    }
    const valueNode = node as YamlNode | null | undefined;
    const emptyValue =
      !valueNode?.range ||
      (isScalar(valueNode) && valueNode.value === null && valueNode.range[0] === valueNode.range[1]);
    if (key && (at === 'key' || emptyValue)) return pos(key.range?.[0] ?? 0);
    if (valueNode?.range) return pos(valueNode.range[0]);
    return pos(parent?.range?.[0] ?? 0);
  };
}

/** Offset of the first token nested deeper than MAX_DEPTH, found without recursion. */
function tooDeepAt(tokens: readonly CST.Token[]): number | undefined {
  const stack: [CST.Token, number][] = tokens.map((token) => [token, 0]);
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [token, depth] = next;
    if (depth > MAX_DEPTH) return 'offset' in token ? token.offset : 0;
    if (token.type === 'document' && token.value) stack.push([token.value, depth + 1]);
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      for (const item of token.items) {
        if ('key' in item && item.key) stack.push([item.key, depth + 1]);
        if (item.value) stack.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}

export function readPolicySource(text: string, file: string): PolicySource {
  const lc = new LineCounter();
  const pos = (offset: number): Position => {
    const { line, col } = lc.linePos(offset);
    return { line, column: col };
  };
  const tokens = [...new Parser(lc.addNewLine).parse(text)];
  const deepAt = tooDeepAt(tokens);
  if (deepAt !== undefined) {
    const d = syntaxError(
      file,
      pos(deepAt),
      `values are nested more than ${MAX_DEPTH} levels deep`,
      'A policy is at most four levels deep: check for unclosed brackets or runaway indentation.',
    );
    return { value: undefined, empty: false, diagnostics: [d], locate: () => pos(deepAt) };
  }

  const diagnostics: Diagnostic[] = [];
  let doc: Document.Parsed | undefined;
  for (const composed of new Composer({ uniqueKeys: false }).compose(tokens, true, text.length)) {
    if (doc) {
      diagnostics.push(syntaxError(file, pos(composed.range[0]), 'the file holds more than one document'));
      break;
    }
    doc = composed;
  }
  // compose(…, forceDoc = true) always yields a document; this only satisfies the type checker.
  if (!doc) return { value: undefined, empty: true, diagnostics, locate: () => pos(0) };
  const locate = makeLocator(doc, pos);

  // One diagnostic per position: the parser often reports a single mistake under two codes.
  const seen = new Set<string>();
  for (const [list, severity] of [
    [doc.errors, 'error'],
    [doc.warnings, 'warning'],
  ] as const) {
    for (const error of list) {
      const d = yamlErrorToDiagnostic(error, file, pos, severity);
      const at = `${d.line}:${d.column}`;
      if (seen.has(at)) continue;
      seen.add(at);
      diagnostics.push(d);
    }
  }
  if (doc.contents === null) return { value: undefined, empty: !hasErrors(diagnostics), diagnostics, locate };

  checkNode({ doc, file, out: diagnostics, pos }, doc.contents, []);
  if (diagnostics.some((d) => d.severity === 'error' && d.code !== 'duplicate-key')) {
    return { value: undefined, empty: false, diagnostics, locate };
  }
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), empty: false, diagnostics, locate };
  } catch {
    // Only alias expansion can fail here: nesting is bounded and dangling aliases were reported.
    diagnostics.push(
      syntaxError(
        file,
        pos(0),
        `aliases expand to more than ${MAX_ALIAS_COUNT} nodes`,
        'Write the repeated values out instead of nesting aliases.',
      ),
    );
    return { value: undefined, empty: false, diagnostics, locate };
  }
}
