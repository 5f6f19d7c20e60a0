// Anthropic Messages reader: `{system?, messages:[...]}` (or a bare array of messages). The
// system prompt becomes artifact `system`, message i becomes `m<i>`, and each tool_result block
// its own `tool` artifact `m<i>.<block>` positioned at the block.
import type { Artifact } from '../types.js';
import { messageArtifacts, readAnthropicContent } from './anthropic-blocks.js';
import { buildArtifact } from './artifact-builder.js';
import { readParts } from './content.js';
import { ReadContext } from './context.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, joinPath, scalarFields } from './values.js';
import { pushAll } from '../collections.js';

const CODE = 'invalid-message';

function readSystem(system: unknown, ctx: ReadContext, root: object): Artifact | null {
  const near = ctx.pos(root);
  if (system === undefined || system === null || system === '') return null;
  if (typeof system === 'string') {
    return buildArtifact({ id: 'system', kind: 'system', content: system, source: near });
  }
  if (Array.isArray(system)) {
    if (system.length === 0) return null;
    const parts = readParts(system, { ctx, path: 'system', near, code: CODE });
    if (!parts) return null;
    return buildArtifact({ id: 'system', kind: 'system', content: parts, source: ctx.pos(system, near) });
  }
  ctx.error(
    CODE,
    near,
    `\`system\` must be a string or an array of text blocks; found ${describeValue(system)}.`,
    'Write the system prompt as a string or as [{"type":"text","text":"..."}].',
  );
  return null;
}

function readMessage(message: unknown, path: string, id: string, ctx: ReadContext): Artifact[] {
  const near = ctx.pos(message);
  if (!isObject(message)) {
    ctx.error(
      CODE,
      near,
      `\`${path}\` must be a message object; found ${describeValue(message)}.`,
      'Write each message as {"role": "user" | "assistant", "content": ...}.',
    );
    return [];
  }
  const role = message['role'];
  if (role !== 'user' && role !== 'assistant') {
    ctx.error(
      CODE,
      near,
      `\`${joinPath(path, 'role')}\` must be user or assistant; found ${typeof role === 'string' ? 'another role' : describeValue(role)}.`,
      'Anthropic messages alternate user and assistant turns; put the system prompt in the top-level `system` field.',
    );
    return [];
  }
  const content = readAnthropicContent(message['content'], {
    ctx,
    path: joinPath(path, 'content'),
    near,
    code: CODE,
  });
  if (!content) return [];
  return messageArtifacts(content, { id, kind: role, source: near }, (r) => ctx.pos(r.node, near));
}

export function readAnthropic(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: ReaderOutput['diagnostics'] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const root = doc.value;
  const rootObj = isObject(root) ? root : null;
  const messages = rootObj ? rootObj['messages'] : root;
  if (!Array.isArray(messages)) {
    ctx.error(
      CODE,
      ctx.pos(root),
      `An Anthropic transcript must be an object with a \`messages\` array; found ${describeValue(messages)} there.`,
      'Write {"system": "...", "messages": [...]}, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const artifacts: Artifact[] = [];
  if (rootObj) {
    const system = readSystem(rootObj['system'], ctx, rootObj);
    if (system) artifacts.push(system);
  }
  const root0 = rootObj ? 'messages' : '';
  messages.forEach((message, i) => {
    pushAll(artifacts, readMessage(message, joinPath(root0, i), `m${i}`, ctx));
  });
  const meta = rootObj ? scalarFields(rootObj, ['system']) : {};
  return { artifacts, meta, diagnostics };
}
