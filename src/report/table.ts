// Terminal tables (cli-table3): one per case, fastest method first, methods without a speed last
// with their reason spanning the figure columns.
import Table from 'cli-table3';
import type { CaseResult, ResultFile } from '../results/schema.js';
import {
  caseHeader, samplingText, showsSampling, fastestPeer, fmtBytes, fmtRatio, fmtRate, fmtSig, fmtSpreadUs, fmtUs, hasSpeed, methodLabel, orderResults, reasonText, sameKernelNotes, speedupVsPeer, statusText,
} from './present.js';

type Meta = Pick<ResultFile, 'backend' | 'device' | 'env'>;

export function renderCaseTable(c: CaseResult, meta: Meta): string {
  const ordered = orderResults(c.results);
  const peer = fastestPeer(c.results);
  const withBreakdown = c.results.some((r) => r.breakdown_ms && Object.keys(r.breakdown_ms).length);
  // without a verified peer (e.g. the CPU backend) the comparison columns would stay empty: leave them out
  const head = ['method', 'family', 'status', 'median µs', 'IQR µs', 'GFLOPS', 'GB/s', 'peak mem'];
  if (peer) head.push(`vs ${peer.method}`);
  if (peer && c.op === 'spgemm') head.push(`mem / ${peer.method}`);
  const withSampling = showsSampling(c.results);
  if (withSampling) head.push('samples');
  if (withBreakdown) head.push('phases (ms)');
  const table = new Table({ head, style: { head: [], border: [], compact: true }, colAligns: head.map((h, i) => (i < 3 || h === 'phases (ms)' ? 'left' : 'right')) });
  for (const r of ordered) {
    const lead = [methodLabel(r), r.family, statusText(r)];
    if (!hasSpeed(r)) {
      table.push([...lead, { content: reasonText(r), colSpan: head.length - lead.length, hAlign: 'left' }]);
      continue;
    }
    const row: string[] = [...lead, fmtUs(r.median_ms), fmtSpreadUs(r), fmtRate(r.gflops), fmtRate(r.bandwidth_gbs), fmtBytes(r.peak_mem_bytes)];
    if (peer) row.push(fmtRatio(speedupVsPeer(r, peer)));
    if (peer && c.op === 'spgemm') row.push(peer.peak_mem_bytes > 0 ? fmtRatio(r.peak_mem_bytes / peer.peak_mem_bytes) : '');
    if (withSampling) row.push(samplingText(r));
    if (withBreakdown) row.push(Object.entries(r.breakdown_ms ?? {}).map(([k, v]) => `${k} ${fmtSig(v)}`).join(', '));
    table.push(row);
  }
  const notes = sameKernelNotes(c.results).map((n) => `\nnote: ${n}`).join('');
  return `${c.label}\n${caseHeader(c, meta)}\n${table.toString()}${notes}`;
}

export function renderTables(file: ResultFile): string {
  return file.cases.map((c) => renderCaseTable(c, file)).join('\n\n');
}
