// The viewer page's stylesheet (inlined in a <style> element: the page loads nothing). Light theme,
// one colour per fate (kept green-grey, protected violet, masked amber, excerpt teal, dropped red)
// and per artifact kind for the budget bar; system fonts and monospace content, no web fonts.
export const PAGE_STYLE = `
:root {
  --bg: #f6f7f9; --panel: #ffffff; --ink: #1d2430; --muted: #5b6575; --line: #dde2ea; --soft: #eef1f5;
  --accent: #2f5bd3;
  --kept: #4f7d5c; --kept-bg: #e8f3ea;
  --protected: #6a4bc4; --protected-bg: #efeafc;
  --masked: #a86a00; --masked-bg: #fdf1d8;
  --excerpt: #0c7f80; --excerpt-bg: #dcf3f2;
  --dropped: #c0392b; --dropped-bg: #fde7e4;
  --error: #b42318; --error-bg: #fdecea; --warning: #9a6700; --warning-bg: #fff5d6;
  --pass: #2e7d32; --pass-bg: #e6f4e7; --new: #2f5bd3; --new-bg: #e7edfc;
  --k-system: #475569; --k-policy: #7c3aed; --k-task: #0284c7; --k-user: #2563eb; --k-assistant: #16a34a;
  --k-tool: #ea580c; --k-retrieval: #db2777; --k-summary: #0d9488; --k-phase: #a16207; --k-overhead: #94a3b8;
  --mono: ui-monospace, SFMono-Regular, 'SF Mono', Menlo, Consolas, 'Liberation Mono', monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
h1, h2, h3, h4 { margin: 0; line-height: 1.25; }
button, input { font: inherit; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }

.page-head { background: #1f2a44; color: #f3f5fa; padding: 14px 24px 12px; display: grid; grid-template-columns: auto 1fr; gap: 2px 28px; align-items: center; }
.page-head .brand, .page-head h1 { grid-column: 1; }
.page-head .totals { grid-column: 2; grid-row: 1 / span 2; justify-self: end; }
.page-head .run-meta { grid-column: 1 / span 2; margin-top: 8px; }
@media (max-width: 900px) { .page-head { grid-template-columns: 1fr; } .page-head .totals { grid-column: 1; grid-row: auto; justify-self: start; } }
.brand { font-size: 12px; letter-spacing: .08em; text-transform: uppercase; color: #aeb9d3; }
.page-head h1 { font-size: 21px; margin: 2px 0 0; font-weight: 650; }
.totals { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; margin: 0; padding: 0; }
.total { background: rgba(255,255,255,.08); border: 1px solid rgba(255,255,255,.16); border-radius: 8px; padding: 4px 12px; min-width: 92px; }
.total .n { display: block; font-size: 19px; font-weight: 700; color: #fff; line-height: 1.2; }
.total .w { font-size: 12px; color: #c9d2e6; }
.total.hot { background: rgba(239,83,80,.2); border-color: rgba(239,83,80,.55); }
.total.warm { background: rgba(255,193,7,.16); border-color: rgba(255,193,7,.5); }
.total.good { background: rgba(102,187,106,.16); border-color: rgba(102,187,106,.45); }
.run-meta { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 0; font-size: 12.5px; color: #c9d2e6; }
.run-meta div { display: flex; gap: 6px; align-items: baseline; }
.run-meta dt { color: #8f9bb8; }
.run-meta dd { margin: 0; color: #eef1f8; }
.run-meta code { color: #eef1f8; }

.layout { display: grid; grid-template-columns: 250px minmax(0, 1fr); gap: 20px; padding: 14px 24px 40px; align-items: start; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } .toc { position: static; max-height: none; } }
.toc { position: sticky; top: 12px; max-height: calc(100vh - 24px); overflow: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px 10px; }
.toc h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 4px 8px; }
.toc ol { list-style: none; margin: 0; padding: 0; }
.toc li a { display: block; padding: 6px 6px; border-radius: 6px; color: var(--ink); }
.toc li a:hover { background: var(--soft); text-decoration: none; }
.toc-name { display: block; font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; margin-top: 2px; }
.toc-meta { display: block; font-size: 11.5px; color: var(--muted); }

.badge { display: inline-block; font-size: 11px; font-weight: 700; letter-spacing: .03em; text-transform: uppercase; border-radius: 999px; padding: 1px 8px; border: 1px solid transparent; white-space: nowrap; }
.outcome-pass { color: var(--pass); background: var(--pass-bg); border-color: #b9dfbb; }
.outcome-new { color: var(--new); background: var(--new-bg); border-color: #bccbf4; }
.outcome-drift, .outcome-violations, .outcome-error { color: var(--error); background: var(--error-bg); border-color: #f5c2bc; }
.badge.is-warning { color: var(--warning); background: var(--warning-bg); border-color: #f0d68a; }

.filters { position: sticky; top: 0; z-index: 5; background: rgba(246,247,249,.96); backdrop-filter: blur(4px); border-bottom: 1px solid var(--line); padding: 8px 0; margin-bottom: 10px; display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; }
.filter-group { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.filter-group legend { float: left; font-size: 11.5px; font-weight: 650; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin-right: 4px; padding: 0; }
.chip { display: inline-flex; align-items: center; gap: 6px; border: 1px solid var(--line); background: var(--panel); border-radius: 999px; padding: 3px 10px 3px 8px; cursor: pointer; user-select: none; font-size: 12.5px; }
.chip input { margin: 0; accent-color: var(--accent); }
.chip:has(input:focus-visible) { outline: 2px solid var(--accent); outline-offset: 1px; }
.chip:has(input:not(:checked)) { color: var(--muted); background: var(--soft); }
.chip:has(input:disabled) { opacity: .55; cursor: default; }
.chip .count { font-size: 11px; color: var(--muted); background: var(--soft); border-radius: 999px; padding: 0 6px; }
.dot { width: 10px; height: 10px; border-radius: 3px; display: inline-block; flex: none; }
.dot.fate-kept { background: var(--kept); } .dot.fate-protected { background: var(--protected); }
.dot.fate-masked { background: var(--masked); } .dot.fate-excerpt { background: var(--excerpt); }
.dot.fate-dropped { background: var(--dropped); }
.btn { border: 1px solid var(--line); background: var(--panel); color: var(--ink); border-radius: 6px; padding: 3px 10px; cursor: pointer; font-size: 12.5px; }
.btn:hover { background: var(--soft); }
.filter-actions { display: flex; gap: 6px; margin-left: auto; }
.filter-status { flex-basis: 100%; margin: 0; font-size: 12px; color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: -2px 0 12px; font-size: 12px; color: var(--muted); }
.legend span { display: inline-flex; align-items: center; gap: 6px; }

.transcript { background: var(--panel); border: 1px solid var(--line); border-radius: 12px; margin-bottom: 16px; box-shadow: 0 1px 2px rgba(16,24,40,.04); scroll-margin-top: 70px; }
.transcript[data-outcome="drift"], .transcript[data-outcome="violations"], .transcript[data-outcome="error"] { border-left: 4px solid var(--error); }
.transcript[data-outcome="new"] { border-left: 4px solid var(--new); }
.transcript[data-outcome="pass"] { border-left: 4px solid var(--pass); }
.transcript-box > summary { list-style: none; cursor: pointer; padding: 12px 18px; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; }
.transcript-box > summary::-webkit-details-marker { display: none; }
.transcript-box > summary::before { content: '\\25B8'; color: var(--muted); font-size: 12px; transition: transform .15s; }
.transcript-box[open] > summary::before { transform: rotate(90deg); }
.transcript-box > summary h2 { font-family: var(--mono); font-size: 15px; font-weight: 650; overflow-wrap: anywhere; }
.transcript-box > summary .t-meta { color: var(--muted); font-size: 12.5px; margin-left: auto; }
.transcript-body { padding: 0 18px 18px; border-top: 1px solid var(--soft); }
.block { margin-top: 14px; }
.block > h3 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin-bottom: 8px; display: flex; align-items: center; gap: 10px; }
.block > h3 .h-actions { margin-left: auto; display: flex; gap: 6px; text-transform: none; letter-spacing: 0; font-weight: 400; }
.notes { margin: 12px 0 0; padding: 8px 12px 8px 28px; background: var(--new-bg); border-radius: 8px; color: #263b7a; }
.findings { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--warning); border-radius: 8px; padding: 6px 12px; background: #fffdf6; }
.finding.sev-error { border-left-color: var(--error); background: #fff8f7; }
.finding .f-head { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; font-size: 12.5px; }
.finding .sev { font-weight: 700; text-transform: uppercase; font-size: 11px; color: var(--warning); }
.finding.sev-error .sev { color: var(--error); }
.finding .f-msg { margin: 2px 0 0; }
.finding .f-hint { margin: 4px 0 0; color: var(--muted); font-size: 12.5px; }
.v-check { font-family: var(--mono); font-size: 12px; background: var(--soft); border-radius: 4px; padding: 0 6px; }

.budget-label { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; margin-bottom: 6px; }
.budget-label strong { font-size: 14px; }
.budget-label .over { color: var(--error); font-weight: 650; }
.budget-bar { position: relative; display: flex; height: 22px; border-radius: 6px; overflow: hidden; background: var(--soft); border: 1px solid var(--line); }
.budget-bar.over { border-color: var(--error); box-shadow: 0 0 0 2px var(--error-bg); }
.budget-seg { height: 100%; min-width: 2px; border-right: 1px solid rgba(255,255,255,.7); }
.budget-free { height: 100%; background: repeating-linear-gradient(135deg, #f3f5f8 0 6px, #e9edf2 6px 12px); }
.budget-limit { position: absolute; top: -2px; bottom: -2px; width: 0; border-left: 2px dashed var(--error); }
.kind-system { background: var(--k-system); } .kind-policy { background: var(--k-policy); } .kind-task { background: var(--k-task); }
.kind-user { background: var(--k-user); } .kind-assistant { background: var(--k-assistant); } .kind-tool { background: var(--k-tool); }
.kind-retrieval { background: var(--k-retrieval); } .kind-summary { background: var(--k-summary); } .kind-phase { background: var(--k-phase); }
.kind-overhead { background: var(--k-overhead); }
.budget-keys { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 8px 0 0; padding: 0; font-size: 12px; color: var(--muted); }
.budget-keys li { display: inline-flex; align-items: center; gap: 6px; }
.budget-keys .swatch { width: 10px; height: 10px; border-radius: 3px; display: inline-block; }

.timeline { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.timeline-head, .a-row { display: grid; grid-template-columns: 44px minmax(120px, 1.3fr) 130px minmax(170px, 1.2fr) 110px; gap: 10px; align-items: baseline; }
.timeline-head { padding: 6px 12px; background: var(--soft); font-size: 11.5px; font-weight: 650; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.artifact { border-top: 1px solid var(--soft); border-left: 4px solid var(--kept); padding: 6px 12px 6px 8px; }
.artifact.is-filtered { display: none; }
.artifact.fate-protected { border-left-color: var(--protected); }
.artifact.fate-masked { border-left-color: var(--masked); }
.artifact.fate-excerpt { border-left-color: var(--excerpt); }
.artifact.fate-dropped { border-left-color: var(--dropped); background: #fffafa; }
.artifact.fate-dropped .a-id code { color: var(--muted); text-decoration: line-through; text-decoration-color: rgba(192,57,43,.5); }
.artifact.has-violations { background: #fff6f5; box-shadow: inset 3px 0 0 var(--error); }
.artifact.changed .a-id::after { content: 'changed'; margin-left: 6px; font: 700 10px/1 system-ui, sans-serif; text-transform: uppercase; color: var(--warning); background: var(--warning-bg); border-radius: 4px; padding: 2px 5px; }
.artifact:target { outline: 2px solid var(--accent); outline-offset: -2px; }
.a-line { color: var(--muted); font-family: var(--mono); font-size: 12px; text-align: right; }
.a-id code { overflow-wrap: anywhere; }
.a-kind { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
.a-kind .k { display: inline-block; width: 8px; height: 8px; border-radius: 2px; margin-right: 5px; }
.fate-chip { display: inline-block; font-size: 11px; font-weight: 700; border-radius: 4px; padding: 1px 6px; margin-right: 6px; }
.fate-chip.fate-kept { color: var(--kept); background: var(--kept-bg); }
.fate-chip.fate-protected { color: var(--protected); background: var(--protected-bg); }
.fate-chip.fate-masked { color: var(--masked); background: var(--masked-bg); }
.fate-chip.fate-excerpt { color: var(--excerpt); background: var(--excerpt-bg); }
.fate-chip.fate-dropped { color: var(--dropped); background: var(--dropped-bg); }
.a-reason { font-size: 12px; color: var(--muted); }
.a-tokens { font-family: var(--mono); font-size: 12px; text-align: right; white-space: nowrap; }
.fate-dropped .a-tokens { white-space: normal; }
.a-kind.unknown { font-style: italic; }
.chip .count-of { font-size: 11px; color: var(--muted); }
.tag.t-pii.t-premasked { background: var(--soft); }
.glossary { margin: -4px 0 12px; font-size: 12px; color: var(--muted); }
.glossary > summary { cursor: pointer; color: var(--accent); width: max-content; }
.glossary dl { display: grid; grid-template-columns: minmax(180px, max-content) 1fr; gap: 4px 16px; margin: 6px 0 0; }
.glossary dl > div { display: contents; }
.glossary dt { font-weight: 600; color: var(--ink); }
.glossary dd { margin: 0; }
.a-tags, .a-detail, .a-violations, .artifact > details, .a-absent { margin: 3px 0 0 54px; }
.a-tags { display: flex; flex-wrap: wrap; gap: 4px; }
.tag { font-size: 11.5px; border-radius: 4px; padding: 0 6px; background: var(--soft); color: var(--muted); }
.tag.t-protected { background: var(--protected-bg); color: var(--protected); }
.tag.t-pii { background: var(--masked-bg); color: var(--masked); }
.tag.t-error { background: var(--error-bg); color: var(--error); }
.a-detail { font-size: 12.5px; color: var(--muted); }
.a-violations { list-style: none; padding: 0; font-size: 12.5px; color: var(--error); }
.a-absent { font-size: 12px; color: var(--muted); font-style: italic; }
details.a-content > summary { cursor: pointer; font-size: 12px; color: var(--accent); width: max-content; }
.content { margin-top: 6px; border: 1px solid var(--line); border-radius: 6px; background: #fbfcfd; padding: 8px 10px; max-height: 420px; overflow: auto; }
.content pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.content > * + * { margin-top: 8px; }
.call { border-left: 3px solid var(--k-tool); padding-left: 8px; }
.call-name { font-weight: 650; font-family: var(--mono); font-size: 12.5px; }
.call-id { color: var(--muted); font-size: 11.5px; margin-left: 8px; font-family: var(--mono); }
.part-type { font-size: 11px; font-weight: 700; text-transform: uppercase; color: var(--muted); margin-right: 6px; }
.part code { overflow-wrap: anywhere; }
.empty { color: var(--muted); font-style: italic; margin: 0; }
mark.pii { background: var(--masked-bg); color: #7a4d00; border: 1px solid #f0c97a; border-radius: 3px; padding: 0 2px; }

.diff-summary { display: grid; gap: 8px; }
.diff-summary p { margin: 0; }
.diff-summary ul { margin: 0; padding-left: 20px; }
table.grid { border-collapse: collapse; width: 100%; font-size: 12.5px; }
table.grid th, table.grid td { border-bottom: 1px solid var(--soft); padding: 5px 8px; text-align: left; vertical-align: top; }
table.grid th { background: var(--soft); font-size: 11.5px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.sbs-tools { display: flex; gap: 12px; align-items: center; margin-bottom: 8px; font-size: 12.5px; }
.sbs.changes-only .sbs-row.same { display: none; }
table.sbs-table { table-layout: fixed; }
.sbs-row.changed td { background: #fffbeb; }
.sbs-row.only-stored td.sbs-stored { background: var(--dropped-bg); }
.sbs-row.only-head td.sbs-head { background: var(--pass-bg); }
.sbs-cell.absent { color: var(--muted); font-style: italic; }
.sbs-meta { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; font-size: 12px; color: var(--muted); }
.side-tag { font-size: 10.5px; font-weight: 700; text-transform: uppercase; border-radius: 4px; padding: 1px 5px; }
.side-tag.only { background: var(--dropped-bg); color: var(--dropped); }
.side-tag.new { background: var(--pass-bg); color: var(--pass); }
.side-tag.chg { background: var(--warning-bg); color: var(--warning); }
pre.unified { margin: 6px 0 0; padding: 8px 10px; background: #fbfcfd; border: 1px solid var(--line); border-radius: 6px; max-height: 480px; overflow: auto; }
pre.unified .u-add { color: #116329; background: #e6ffec; display: block; }
pre.unified .u-del { color: #82071e; background: #ffebe9; display: block; }
pre.unified .u-hunk { color: #6639ba; display: block; }
.foot { color: var(--muted); font-size: 12px; padding: 0 24px 24px; }
`;
