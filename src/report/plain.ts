// Plain lines for logs and CI (not a TTY, or CI set): a sink that prints progress to stderr, and
// the results as one line per method, same order and wording as the tables.
import type { BenchSink } from '../bench/api.js';
import { plainProgress } from '../progress/event.js';
import {
  caseHeader, samplingText, showsSampling, fastestPeer, fmtBytes, fmtRatio, fmtRate, fmtSpreadUs, fmtUs, hasSpeed, methodLabel, orderResults, reasonText, sameKernelNotes, speedupVsPeer, statusText,
} from './present.js';
import type { CaseResult, ResultFile } from '../results/schema.js';
import type { ExplainLine } from '../native/protocol.js';

type Meta = Pick<ResultFile, 'backend' | 'device' | 'env'>;

export function renderCasePlain(c: CaseResult, meta: Meta): string {
  const peer = fastestPeer(c.results);
  const width = Math.max(...c.results.map((r) => methodLabel(r).length));
  const lines = [`case ${c.id}: ${c.label}`, `  ${caseHeader(c, meta)}`];
  for (const r of orderResults(c.results)) {
    const lead = `  ${methodLabel(r).padEnd(width)}  ${r.family.padEnd(9)}  ${statusText(r).padEnd(10)}`;
    if (!hasSpeed(r)) {
      lines.push(`${lead}  ${reasonText(r)}`.trimEnd());
      continue;
    }
    const parts = [
      `median ${fmtUs(r.median_ms)} µs`, `IQR ${fmtSpreadUs(r)} µs`, `${fmtRate(r.gflops)} GFLOPS`, `${fmtRate(r.bandwidth_gbs)} GB/s`, `peak ${fmtBytes(r.peak_mem_bytes)}`,
    ];
    const sp = speedupVsPeer(r, peer);
    if (sp !== null && peer) parts.push(`${fmtRatio(sp)} vs ${peer.method}`);
    if (showsSampling(c.results)) parts.push(`samples ${samplingText(r)}`);
    lines.push(`${lead}  ${parts.join('  ')}`);
  }
  for (const n of sameKernelNotes(c.results)) lines.push(`  note: ${n}`);
  return lines.join('\n');
}

export function renderPlain(file: ResultFile): string {
  return file.cases.map((c) => renderCasePlain(c, file)).join('\n');
}

/** Remembers explain tables already shown: each precision or case repeats the same derivation. */
export function explainOnce(): (e: ExplainLine) => string | null {
  const seen = new Set<string>();
  return (e) => {
    const key = JSON.stringify([e.title, e.columns, e.rows]);
    if (seen.has(key)) return null;
    seen.add(key);
    return renderExplain(e);
  };
}

export function renderExplain(e: ExplainLine): string {
  const widths = e.columns.map((h, i) => Math.max(h.length, ...e.rows.map((r) => String(r[i] ?? '').length)));
  const fmt = (cells: (string | number)[]): string => cells.map((x, i) => String(x).padEnd(widths[i])).join('  ').trimEnd();
  return [e.title, fmt(e.columns), ...e.rows.map(fmt)].join('\n');
}

const PROGRESS_EVERY_MS = 2000;

/** Progress and logs as plain lines on stderr (stdout stays for results). */
export function plainSink(opts: { quiet: boolean; err?: NodeJS.WritableStream; out?: NodeJS.WritableStream }): BenchSink {
  const err = opts.err ?? process.stderr;
  const out = opts.out ?? process.stdout;
  const explain = explainOnce();
  // a line per case, and for long cases at most one per PROGRESS_EVERY_MS as the child reports methods
  const progress = plainProgress((line) => err.write(`${line}\n`), PROGRESS_EVERY_MS);
  return {
    progress(p) {
      if (!opts.quiet) progress(p);
    },
    caseDone() {},
    log(message) {
      if (!opts.quiet) err.write(`${message}\n`);
    },
    explain(e) {
      const text = explain(e);
      if (text !== null) out.write(`${text}\n\n`);
    },
  };
}
