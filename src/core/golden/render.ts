// The three human-facing renderings of a check report; the fourth format, JSON, is the report
// itself through stableStringify.
export { renderText } from './render-text.js';
export { escapeMarkdown } from './render-markdown.js';
export { renderGithub, escapeData, escapeProperty } from './render-github.js';
