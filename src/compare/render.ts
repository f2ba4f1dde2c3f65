// Printers for a compare report: terminal table, Markdown job summary, JUnit XML.
import { mdTable } from '../report/markdown.js';
import { escapeXml as esc } from '../util/xml.js';
import { type CompareReport, type PairResult, VERDICTS, type Verdict } from './compare.js';

const SEVERITY: Record<Verdict, number> = Object.fromEntries(VERDICTS.map((v, i) => [v, i])) as Record<Verdict, number>;
const ICON: Record<Verdict, string> = {
  regression: '🔴 regression',
  failed: '🔴 failed',
  throttled: '🟡 throttled (GPU clocks down; not judged)',
  improvement: '🟢 improvement',
  noise: '⚪ noise',
  unchanged: 'unchanged',
  'missing-base': '🆕 missing in base',
  'missing-new': '⚠️ missing in new',
  skipped: 'skipped',
};

function ms(x: number | null): string {
  return x === null ? '–' : Number(x.toPrecision(4)).toString();
}

function ratioText(r: number | null): string {
  return r === null ? '–' : r.toFixed(3);
}

function ciText(ci: [number, number] | null): string {
  return ci ? `${ci[0].toFixed(3)}–${ci[1].toFixed(3)}` : '–';
}

function pText(p: number | null): string {
  return p === null ? '–' : p < 0.001 ? '<0.001' : p.toFixed(3);
}

function row(p: PairResult, verdict: (v: Verdict) => string): string[] {
  return [p.caseId, p.method, ms(p.baseMedian), ms(p.newMedian), ratioText(p.ratio), ciText(p.ci), pText(p.p), verdict(p.verdict), p.note];
}

function header(r: CompareReport): string[] {
  return ['Case', 'Method', 'Base ms', 'New ms', 'Ratio', `${Math.round(r.options.level * 100)} % CI`, 'p', 'Verdict', 'Note'];
}

export function summaryLine(r: CompareReport): string {
  const parts = VERDICTS.filter((v) => r.counts[v] > 0).map((v) => `${r.counts[v]} ${v}`);
  const head = r.exitCode === 1 ? 'REGRESSION' : r.exitCode === 5 ? 'no regression, but THROTTLED (slower only in runs on a throttled GPU; exit 5)' : 'no regression';
  return `${head}: ${parts.join(', ') || 'nothing to compare'} (threshold ${r.options.threshold} %, alpha ${r.options.alpha})`;
}

export function warningLines(r: CompareReport): string[] {
  return r.warnings.map((w) => `WARNING: environments differ, timings may not be comparable: ${w}`);
}

/** What the reader must know to trust the verdicts: single-run pairs, machine drift, normalization. */
export function noticeLines(r: CompareReport): string[] {
  const out: string[] = [];
  const runs = r.pairs.filter((p) => p.basis === 'runs');
  if (runs.length) {
    const counts = [...new Set(runs.flatMap((p) => [p.runsBase, p.runsNew]))].sort((a, b) => a - b);
    out.push(`${runs.length} pair(s) were judged on separate process runs (${counts[0]}${counts.length > 1 ? `–${counts[counts.length - 1]}` : ''} per side): Welch's t on the log run medians, CI of the ratio of geometric means; a change within the run-to-run spread is noise`);
  }
  if (r.singleRunPairs > 0) {
    out.push(`${r.singleRunPairs} of ${r.pairs.length} pair(s) were judged on the samples of a single run per side: run-to-run drift (clock state, memory placement; often 5–15 % on a GPU) is not accounted for, so a "regression" there may be drift. Record both files with --repeat 3 or more (suite field "repeat").`);
  }
  for (const d of r.drift) {
    out.push(`machine drift in ${d.caseId}: all ${d.methods} methods, peers included, moved ×${d.factor.toFixed(3)}${r.options.normalizeByPeers ? ' (judged relative to the peers)' : '; the peers are unchanged code, so suspect the machine (or judge relative to them with --normalize-by-peers)'}`);
  }
  if (r.options.normalizeByPeers) out.push('--normalize-by-peers: every ratio is divided by the geometric-mean ratio of its case\'s verified peers (cuSPARSE/cuBLAS), so ours/paper are judged relative to the peers');
  return out;
}

/** Terminal table (cli-table3), warnings first and the verdict line last. */
export async function renderTerminal(r: CompareReport): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const t = new Table({ head: header(r), style: { head: [], border: [] }, wordWrap: true, colWidths: [null, null, null, null, null, null, null, null, 44] as unknown as number[] });
  for (const p of r.pairs) t.push(row(p, (v) => (v === 'regression' || v === 'failed' || v === 'throttled' ? v.toUpperCase() : v)));
  return [...warningLines(r), `base: ${r.baseName} (${r.baseEnv})`, `new:  ${r.newName} (${r.newEnv})`, t.toString(), ...noticeLines(r).map((l) => `note: ${l}`), summaryLine(r), ''].join('\n');
}

/** Markdown for a CI job summary: verdict, warnings, the notable pairs, then every pair folded. */
export function renderCompareMarkdown(r: CompareReport): string {
  const notable = r.pairs.filter((p) => p.verdict !== 'unchanged' && p.verdict !== 'skipped').sort((a, b) => SEVERITY[a.verdict] - SEVERITY[b.verdict]);
  const out = [`## spbench compare: ${r.exitCode === 1 ? '🔴 regression' : r.exitCode === 5 ? '🟡 throttled (no regression judged)' : '✅ no regression'}`, ''];
  for (const w of r.warnings) out.push(`> [!WARNING]`, `> Environments differ, timings may not be comparable: ${w}`, '');
  out.push(`* base: \`${r.baseName}\` — ${r.baseEnv}`, `* new: \`${r.newName}\` — ${r.newEnv}`, `* ${summaryLine(r)}`, '');
  for (const n of noticeLines(r)) out.push(`> [!NOTE]`, `> ${n}`, '');
  const verdict = (v: Verdict) => ICON[v];
  const right = [false, false, true, true, true, false, true, false, false];
  if (notable.length) out.push(mdTable(header(r), notable.map((p) => row(p, verdict)), right), '');
  out.push(`<details><summary>All ${r.pairs.length} pairs</summary>`, '', mdTable(header(r), r.pairs.map((p) => row(p, verdict)), right), '', '</details>', '');
  return out.join('\n');
}

/** JUnit XML: one testcase per (case, method); regressions and failed methods are failures. */
export function renderJunit(r: CompareReport): string {
  const failures = r.counts.regression + r.counts.failed;
  const skipped = r.counts['missing-base'] + r.counts['missing-new'] + r.counts.skipped + r.counts.throttled;
  const cases = r.pairs.map((p) => {
    const detail = `ratio ${ratioText(p.ratio)} (CI ${ciText(p.ci)}, p ${pText(p.p)}), base ${ms(p.baseMedian)} ms, new ${ms(p.newMedian)} ms. ${p.note}`;
    const open = `<testcase classname="${esc(p.caseId)}" name="${esc(p.method)}" time="${((p.newMedian ?? 0) / 1000).toFixed(6)}">`;
    if (p.verdict === 'regression' || p.verdict === 'failed') return `${open}<failure type="${p.verdict}" message="${esc(`${p.verdict}: ${p.note}`)}">${esc(detail)}</failure></testcase>`;
    if (p.verdict === 'missing-base' || p.verdict === 'missing-new' || p.verdict === 'skipped' || p.verdict === 'throttled') return `${open}<skipped message="${esc(`${p.verdict}: ${p.note}`)}"/></testcase>`;
    return `${open}<system-out>${esc(`${p.verdict}: ${detail}`)}</system-out></testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="spbench compare" tests="${r.pairs.length}" failures="${failures}" skipped="${skipped}">
<testsuite name="spbench compare ${esc(r.baseName)} → ${esc(r.newName)}" tests="${r.pairs.length}" failures="${failures}" errors="0" skipped="${skipped}">
${cases.join('\n')}
</testsuite>
</testsuites>
`;
}
