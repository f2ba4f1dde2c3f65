// HTML printer: one self-contained page (inline CSS and SVG, no scripts, no external references).
import type { ResultFile } from '../results/schema.js';
import { type Figure, environmentLine } from './model.js';
import { figureRows } from './rows.js';
import { figureNote } from './markdown.js';
import { timingCheckLines } from './present.js';
import { summaryLines } from './summary.js';
import { chartsFor } from './plots.js';
import { escapeXml as esc } from '../util/xml.js';

const CSS = `body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #ddd;padding-bottom:.3rem}
.meta{color:#555}table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{border:1px solid #ddd;padding:.3rem .6rem}th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}
td.bad{color:#b00020;font-weight:600}figure{margin:1rem 0}svg{max-width:100%;height:auto}.note{color:#555;font-size:.85rem}`;

function cell(text: string, numeric: boolean): string {
  const bad = /^(FAILED|ERROR)$/.test(text);
  return `<td class="${bad ? 'bad' : numeric ? 'n' : ''}">${esc(text)}</td>`;
}

function table(header: string[], rows: string[][], firstNumeric: number): string {
  const head = `<tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c, i) => cell(c, i >= firstNumeric)).join('')}</tr>`).join('\n');
  return `<table><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
}

function figureHtmlTable(f: Figure): string {
  const t = figureRows(f);
  return table(t.header, t.rows, t.firstNumeric);
}

export function renderHtml(file: ResultFile, figures: Figure[]): string {
  const sections = figures.map((f) => {
    const charts = chartsFor(f).map((c) => `<figure>${c.svg}</figure>`).join('\n');
    const checks = timingCheckLines(f.cases).map((l) => `<li>${esc(l)}</li>`);
    const timing = checks.length ? `\n<p class="note">Timing checks:</p>\n<ul>\n${checks.join('\n')}\n</ul>` : '';
    return `<section>\n<h2>${esc(f.title)}</h2>\n${charts}\n${figureHtmlTable(f)}\n<p class="note">${esc(figureNote(f))}</p>${timing}\n</section>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>spbench results</title>
<style>${CSS}</style>
</head>
<body>
<h1>spbench results</h1>
<p class="meta">${esc(environmentLine(file))}<br>Backend: ${esc(file.backend)}; command: <code>${esc(file.command.join(' '))}</code></p>
${summaryHtml(file)}${sections.join('\n') || '<p>The file has no cases.</p>'}
</body>
</html>
`;
}

function summaryHtml(file: ResultFile): string {
  return summaryLines(file.cases).map((line) => `<p class="summary">${esc(line.replace(/`/g, ''))}</p>\n`).join('');
}
