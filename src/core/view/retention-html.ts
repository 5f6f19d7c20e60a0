// The lost facts of one transcript on the viewer page (the `retention` check, docs/checks.md): each
// value a call used that the context at that call had lost, where it was needed, where it was first
// seen and why it was gone. The violations already sit on the call's row of the timeline; this
// table puts both places side by side. Pure; every input string escaped.
import { describeRetention } from '../golden/describe.js';
import type { RetentionReport } from '../retention/index.js';
import { esc } from './html-text.js';

/** The block, or '' when nothing was lost. `link` makes an artifact id a link to its row. */
export function lostFactsHtml(r: RetentionReport | undefined, link: (id: string) => string): string {
  if (!r || r.lost_facts.length === 0) return '';
  const figures = describeRetention(r);
  const rows = r.lost_facts.map(
    (f) =>
      `<tr><td><code>${esc(f.value)}</code></td>` +
      `<td>line ${f.needed.line} ${link(f.needed.id)} ${esc(f.needed.tool)}</td>` +
      `<td>line ${f.source.line} ${link(f.source.id)} ${esc(f.source.kind)}</td>` +
      `<td>${esc(f.cause)}</td></tr>`,
  );
  return [
    `<div class="block lost-facts"><h3>Lost facts (${r.lost_facts.length})</h3>`,
    figures ? `<p class="lost-figures">${esc(figures)}</p>` : '',
    '<table class="grid"><thead><tr><th>value</th><th>needed at</th><th>first seen</th><th>cause</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table></div>`,
  ].join('');
}
