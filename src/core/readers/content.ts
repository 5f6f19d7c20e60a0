// Message content shared by every reader: a string, or an array of parts. Text parts are reduced
// to exactly `{type:'text', text}` (the stabilizer reads and masks `text`; extra provider fields
// such as citations could carry PII it would never see). Every other part (images, audio, files,
// refusals, thinking…) is kept as parsed, unaltered: it counts a fixed cost and is emitted back
// byte-for-byte.
import type { Content, ContentPart, SourcePos } from '../types.js';
import type { ReadContext } from './context.js';
import { describeValue, isObject, joinPath } from './values.js';

export interface ContentSite {
  ctx: ReadContext;
  /** Field path of the value, e.g. `traj[4].content`. */
  path: string;
  /** Position of the nearest enclosing object, for scalars. */
  near: SourcePos;
  /** Diagnostic code of the reader (`invalid-artifact`, `invalid-message`…). */
  code: string;
}

/** One content part, or null after reporting why it is not one. */
export function readPart(node: unknown, site: ContentSite): ContentPart | null {
  const { ctx, path, code } = site;
  const at = ctx.pos(node, site.near);
  if (!isObject(node) || typeof node['type'] !== 'string') {
    ctx.error(
      code,
      at,
      `\`${path}\` must be a content part: an object with a string \`type\`; found ${describeValue(node)}.`,
      'Write text as {"type":"text","text":"..."}; other parts need their provider type.',
    );
    return null;
  }
  if (node['type'] !== 'text') return node as ContentPart;
  const text = node['text'];
  if (typeof text !== 'string') {
    ctx.error(
      code,
      at,
      `\`${joinPath(path, 'text')}\` of a text part must be a string; found ${describeValue(text)}.`,
      'Give every text part a string `text` field.',
    );
    return null;
  }
  return { type: 'text', text };
}

/** Parts of an array; null when any part is invalid (each one reported). */
export function readParts(items: unknown[], site: ContentSite): ContentPart[] | null {
  const parts: ContentPart[] = [];
  let ok = true;
  items.forEach((item, i) => {
    const part = readPart(item, {
      ...site,
      path: joinPath(site.path, i),
      near: site.ctx.pos(items, site.near),
    });
    if (part) parts.push(part);
    else ok = false;
  });
  return ok ? parts : null;
}

/**
 * `content` as providers write it: a string, an array of parts, or null/absent (an assistant
 * message that only calls tools), which becomes the empty string.
 */
export function readContent(value: unknown, site: ContentSite): Content | null {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return readParts(value, site);
  site.ctx.error(
    site.code,
    site.near,
    `\`${site.path}\` must be a string, an array of content parts or null; found ${describeValue(value)}.`,
    'Write the content as a string or as an array of {"type":...} parts.',
  );
  return null;
}
