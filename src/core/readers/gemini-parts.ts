// Gemini `parts` → content parts, function calls and function responses. A Gemini part has no
// `type`: it holds exactly one data field (text, inlineData, fileData, functionCall,
// functionResponse, executableCode, codeExecutionResult) next to optional metadata.
// - text → a text part `{type:'text', text}`; a `thoughtSignature` on it (Gemini signs the part
//   that follows its thinking) is kept right after it as an opaque `{type:'thoughtSignature'}` part,
//   so the text stays visible to the stabilizer and the signature is not lost;
// - text with `thought: true` → an opaque `{type:'thought', ...part}` (like Anthropic thinking);
// - inlineData, fileData, executableCode, codeExecutionResult → an opaque `{type:<field>, ...part}`;
// - functionCall / functionResponse → returned apart; the caller turns them into tool calls and
//   tool artifacts (gemini.ts decides their ids).
import type { Content, ContentPart } from '../types.js';
import type { ContentSite } from './content.js';
import { describeValue, isObject, joinPath, type JsonObject } from './values.js';

const OPAQUE_FIELDS = ['inlineData', 'fileData', 'executableCode', 'codeExecutionResult'] as const;
const DATA_FIELDS = ['text', 'functionCall', 'functionResponse', ...OPAQUE_FIELDS] as const;
const PART_HINT =
  'Each part holds one of text, inlineData, fileData, functionCall, functionResponse, executableCode or codeExecutionResult.';

export interface GeminiCall {
  partIndex: number;
  name: string;
  /** The call's own id, when the recording has one. */
  id: string | undefined;
  /** JSON.stringify(args): the serialized arguments. */
  arguments: string;
}

export interface GeminiResponse {
  partIndex: number;
  node: JsonObject;
  name: string;
  id: string | undefined;
  content: Content;
  /** The API's convention: output under `output`, failures under `error`. */
  isError: boolean;
}

export interface GeminiParts {
  /** Everything that is not a function call or response, in order. */
  content: ContentPart[];
  calls: GeminiCall[];
  responses: GeminiResponse[];
}

/** What a content's role allows: only the model calls functions; only the caller answers them. */
export type PartRole = 'model' | 'caller' | 'system';

function fail(
  site: ContentSite,
  at: unknown,
  path: string,
  expected: string,
  value: unknown,
  hint: string,
): null {
  site.ctx.error(
    site.code,
    site.ctx.pos(at, site.near),
    `\`${path}\` must be ${expected}; found ${describeValue(value)}.`,
    hint,
  );
  return null;
}

function optionalId(value: JsonObject, path: string, site: ContentSite): string | undefined | null {
  const id = value['id'];
  if (id === undefined || id === null || id === '') return undefined;
  if (typeof id === 'string') return id;
  return fail(
    site,
    value,
    joinPath(path, 'id'),
    'a string',
    id,
    'Give the call id as a string, or leave it out.',
  );
}

function requiredName(value: JsonObject, path: string, site: ContentSite): string | null {
  const name = value['name'];
  if (typeof name === 'string' && name !== '') return name;
  return fail(site, value, joinPath(path, 'name'), 'a non-empty string', name, 'Name the function.');
}

function readCall(part: JsonObject, index: number, path: string, site: ContentSite): GeminiCall | null {
  const fc = part['functionCall'];
  const fcPath = joinPath(path, 'functionCall');
  if (!isObject(fc))
    return fail(site, part, fcPath, 'an object', fc, 'Write {"name": "...", "args": {...}}.');
  const name = requiredName(fc, fcPath, site);
  const id = optionalId(fc, fcPath, site);
  const args = fc['args'];
  if (args !== undefined && args !== null && !isObject(args)) {
    return fail(
      site,
      fc,
      joinPath(fcPath, 'args'),
      'an object',
      args,
      'Write the arguments as a JSON object.',
    );
  }
  if (name === null || id === null) return null;
  return { partIndex: index, name, id, arguments: JSON.stringify(args ?? {}) };
}

/** Multimodal function responses carry parts of their own (inlineData, fileData): kept opaque. */
function nestedParts(fr: JsonObject, path: string, site: ContentSite): ContentPart[] | null {
  const parts = fr['parts'];
  if (parts === undefined || parts === null) return [];
  if (!Array.isArray(parts)) return fail(site, fr, joinPath(path, 'parts'), 'an array', parts, PART_HINT);
  const out: ContentPart[] = [];
  for (const [i, p] of parts.entries()) {
    const key = isObject(p) ? OPAQUE_FIELDS.find((f) => f in p) : undefined;
    if (!isObject(p) || key === undefined) {
      return fail(
        site,
        p,
        joinPath(joinPath(path, 'parts'), i),
        'an inlineData or fileData part',
        p,
        PART_HINT,
      );
    }
    out.push({ ...p, type: key });
  }
  return out;
}

function readResponse(
  part: JsonObject,
  index: number,
  path: string,
  site: ContentSite,
): GeminiResponse | null {
  const fr = part['functionResponse'];
  const frPath = joinPath(path, 'functionResponse');
  if (!isObject(fr)) {
    return fail(site, part, frPath, 'an object', fr, 'Write {"name": "...", "response": {...}}.');
  }
  const name = requiredName(fr, frPath, site);
  const id = optionalId(fr, frPath, site);
  const response = fr['response'];
  if (response !== undefined && response !== null && !isObject(response)) {
    return fail(
      site,
      fr,
      joinPath(frPath, 'response'),
      'an object',
      response,
      'Write the response as a JSON object.',
    );
  }
  const extra = nestedParts(fr, frPath, site);
  if (name === null || id === null || extra === null) return null;
  const isError = isObject(response) && 'error' in response && !('output' in response);
  const text: ContentPart = { type: 'text', text: JSON.stringify(response ?? {}) };
  return {
    partIndex: index,
    node: part,
    name,
    id,
    content: extra.length > 0 ? [text, ...extra] : [text],
    isError,
  };
}

/** The one data field a part holds; null after reporting a part with none or several. */
function dataField(part: JsonObject, path: string, site: ContentSite): string | null {
  const present = DATA_FIELDS.filter((f) => part[f] !== undefined);
  if (present.length === 1) return present[0] as string;
  if (present.length === 0 && typeof part['thoughtSignature'] === 'string') return 'thoughtSignature';
  site.ctx.error(
    site.code,
    site.ctx.pos(part, site.near),
    present.length === 0
      ? `\`${path}\` holds no data field a Gemini part can hold.`
      : `\`${path}\` holds ${present.length} data fields (${present.join(', ')}); a part holds exactly one.`,
    PART_HINT,
  );
  return null;
}

function misplaced(site: ContentSite, part: JsonObject, path: string, field: string, role: PartRole): null {
  site.ctx.error(
    site.code,
    site.ctx.pos(part, site.near),
    `\`${joinPath(path, field)}\` cannot appear in a ${role === 'model' ? 'model' : role === 'system' ? 'system instruction' : 'user'} content.`,
    'Only model contents hold functionCall parts, and only user (or function) contents hold functionResponse parts.',
  );
  return null;
}

/** Reads part `i` into `out`; false after reporting why it cannot be read. */
function readPart(part: unknown, i: number, role: PartRole, out: GeminiParts, site: ContentSite): boolean {
  const path = joinPath(site.path, i);
  if (!isObject(part)) return fail(site, part, path, 'a part object', part, PART_HINT) ?? false;
  if (part['thought'] === true) {
    out.content.push({ ...part, type: 'thought' });
    return true;
  }
  const field = dataField(part, path, site);
  if (field === null) return false;
  if (field === 'text') {
    const text = part['text'];
    if (typeof text !== 'string')
      return fail(site, part, joinPath(path, 'text'), 'a string', text, PART_HINT) ?? false;
    out.content.push({ type: 'text', text });
    pushSignature(out.content, part);
    return true;
  }
  if (field === 'functionCall') {
    const call = role === 'model' ? readCall(part, i, path, site) : misplaced(site, part, path, field, role);
    if (call === null) return false;
    out.calls.push(call);
    pushSignature(out.content, part);
    return true;
  }
  if (field === 'functionResponse') {
    const res =
      role === 'caller' ? readResponse(part, i, path, site) : misplaced(site, part, path, field, role);
    if (res === null) return false;
    out.responses.push(res);
    return true;
  }
  // inlineData, fileData, executableCode, codeExecutionResult, or a bare thoughtSignature.
  out.content.push({ ...part, type: field });
  return true;
}

/** Reads a content's `parts`; null when anything in it is invalid (each problem reported). */
export function readGeminiParts(value: unknown, role: PartRole, site: ContentSite): GeminiParts | null {
  if (!Array.isArray(value)) {
    site.ctx.error(
      site.code,
      site.near,
      `\`${site.path}\` must be an array of parts; found ${describeValue(value)}.`,
      'Write each content as {"role": "user" | "model", "parts": [...]}.',
    );
    return null;
  }
  const out: GeminiParts = { content: [], calls: [], responses: [] };
  const partSite = { ...site, near: site.ctx.pos(value, site.near) };
  let ok = true;
  value.forEach((part, i) => {
    if (!readPart(part, i, role, out, partSite)) ok = false;
  });
  return ok ? out : null;
}

/** A signature travels with its part: the opaque part right after it keeps it. */
function pushSignature(content: ContentPart[], part: JsonObject): void {
  const signature = part['thoughtSignature'];
  if (typeof signature === 'string') content.push({ type: 'thoughtSignature', thoughtSignature: signature });
}
