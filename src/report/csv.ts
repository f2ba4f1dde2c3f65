// CSV printer: one row per (case, method), RFC 4180 quoting; case parameters become columns.
import type { ResultFile } from '../results/schema.js';

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const METHOD_COLUMNS = ['method', 'family', 'status', 'reason', 'timed_region', 'samples', 'median_ms', 'min_ms', 'q1_ms', 'q3_ms', 'max_ms', 'stdrel', 'gflops', 'bandwidth_gbs', 'flops', 'bytes_moved', 'peak_mem_bytes', 'verified', 'verify_passed', 'max_rel_err', 'tol', 'verify_detail'] as const;

export function renderCsv(file: ResultFile): string {
  const paramKeys = [...new Set(file.cases.flatMap((c) => Object.keys(c.params)))].sort();
  const inputKeys = [...new Set(file.cases.flatMap((c) => Object.keys(c.input)))].sort();
  const header = ['case_id', 'op', 'label', ...paramKeys.map((k) => `param_${k}`), ...inputKeys.map((k) => `input_${k}`), ...METHOD_COLUMNS];
  const lines = [header.map(csvField).join(',')];
  for (const c of file.cases) {
    for (const r of c.results) {
      const method: Record<(typeof METHOD_COLUMNS)[number], unknown> = {
        method: r.method, family: r.family, status: r.status, reason: r.reason, timed_region: r.timed_region,
        samples: r.samples_ms.length, median_ms: r.median_ms, min_ms: r.min_ms, q1_ms: r.q1_ms, q3_ms: r.q3_ms,
        max_ms: r.max_ms, stdrel: r.stdrel, gflops: r.gflops, bandwidth_gbs: r.bandwidth_gbs, flops: r.flops,
        bytes_moved: r.bytes_moved, peak_mem_bytes: r.peak_mem_bytes, verified: r.verify.checked,
        verify_passed: r.verify.passed, max_rel_err: r.verify.max_rel_err, tol: r.verify.tol, verify_detail: r.verify.detail,
      };
      const row = [c.id, c.op, c.label, ...paramKeys.map((k) => c.params[k]), ...inputKeys.map((k) => c.input[k]), ...METHOD_COLUMNS.map((k) => method[k])];
      lines.push(row.map(csvField).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
