// `spbench report h100.json h200.json`: the same cases of several devices side by side. Per case and
// device: the best of our methods (time, GFLOPS), its speedup over the fastest verified peer on that
// device, and the device ratio (first file's time / this file's time: above 1, this device is faster).
// Printers for Markdown, HTML and SVG (GFLOPS and speedup bar charts) and CSV.
import { basename } from 'node:path';
import { csvField } from '../report/csv.js';
import { mdTable } from '../report/markdown.js';
import { fmt } from '../report/model.js';
import { barChart, stackCharts, type Chart } from '../report/svg.js';
import type { CaseResult, MethodResult, ResultFile } from '../results/schema.js';
import { UserError } from '../util/errors.js';
import { escapeXml as esc } from '../util/xml.js';

export interface DeviceFile {
  path: string;
  file: ResultFile;
}

export interface DeviceCell {
  method: string | null; // best of ours (or, where a file has no "ours" method, its fastest non-peer)
  ms: number | null;
  gflops: number | null;
  peer: string | null; // fastest verified peer
  speedup: number | null; // peer median / best median
  ratio: number | null; // first device's best median / this one's
}

export interface DeviceRow {
  id: string;
  label: string;
  cells: DeviceCell[]; // one per device, in the order of the files
}

export interface DeviceComparison {
  devices: string[];
  rows: DeviceRow[];
}

const ok = (r: MethodResult): boolean => r.status === 'ok' && r.median_ms !== null;
const fastest = (rs: MethodResult[]): MethodResult | undefined => rs.filter(ok).sort((a, b) => a.median_ms! - b.median_ms!)[0];

function cellOf(c: CaseResult | undefined): Omit<DeviceCell, 'ratio'> {
  if (!c) return { method: null, ms: null, gflops: null, peer: null, speedup: null };
  const best = fastest(c.results.filter((r) => r.family === 'ours')) ?? fastest(c.results.filter((r) => r.family !== 'peer'));
  const peer = fastest(c.results.filter((r) => r.family === 'peer'));
  return {
    method: best?.method ?? null,
    ms: best?.median_ms ?? null,
    gflops: best?.gflops ?? null,
    peer: peer?.method ?? null,
    speedup: best && peer ? peer.median_ms! / best.median_ms! : null,
  };
}

/** Device names for the columns; files of one kind are told apart by their file name. */
function deviceNames(files: DeviceFile[]): string[] {
  const kinds = files.map((f) => f.file.device?.name ?? `${f.file.backend} backend`);
  return kinds.map((k, i) => (kinds.filter((x) => x === k).length > 1 ? `${k} (${basename(files[i].path)})` : k));
}

export function compareDevices(files: DeviceFile[]): DeviceComparison {
  if (files.length < 2) throw new UserError('a cross-device report needs at least two result files');
  const maps = files.map((f) => new Map(f.file.cases.map((c) => [c.id, c])));
  const ids = [...new Set(files.flatMap((f) => f.file.cases.map((c) => c.id)))];
  const shared = ids.filter((id) => maps.every((m) => m.has(id)));
  if (!shared.length) throw new UserError(`${files.map((f) => f.path).join(', ')} have no case id in common, so nothing can be put side by side (were they run from the same suite?)`);
  const rows = ids.map((id) => {
    const cells = maps.map((m) => cellOf(m.get(id)));
    const first = cells[0].ms;
    return {
      id,
      label: maps.find((m) => m.has(id))!.get(id)!.label,
      cells: cells.map((c) => ({ ...c, ratio: first !== null && c.ms !== null && c.ms > 0 ? first / c.ms : null })),
    };
  });
  return { devices: deviceNames(files), rows };
}

const time = (ms: number | null): string => (ms === null ? '—' : ms >= 1 ? `${fmt(ms)} ms` : `${fmt(ms * 1000)} µs`);
const times = (x: number | null): string => (x === null ? '—' : `${fmt(x)}×`);

function tableRows(d: DeviceComparison): { header: string[]; rows: string[][] } {
  const header = ['case', ...d.devices.flatMap((n, i) => [`${n}: best of ours`, 'time', 'GFLOPS', 'speedup over fastest peer', ...(i > 0 ? [`vs ${d.devices[0]}`] : [])])];
  const rows = d.rows.map((r) => [
    r.id,
    ...r.cells.flatMap((c, i) => [c.method ?? '—', time(c.ms), c.gflops === null ? '—' : fmt(c.gflops), c.speedup === null ? '—' : `${times(c.speedup)} (${c.peer})`, ...(i > 0 ? [times(c.ratio)] : [])]),
  ]);
  return { header, rows };
}

export function deviceCharts(d: DeviceComparison): Chart[] {
  const rows = d.rows.filter((r) => r.cells.some((c) => c.ms !== null));
  const categories = rows.map((r) => r.id);
  return [
    barChart({ title: 'GFLOPS of the best of our methods, per device', yLabel: 'GFLOPS', categories, series: d.devices.map((name, i) => ({ name, values: rows.map((r) => r.cells[i].gflops) })) }),
    barChart({ title: 'Speedup over the fastest peer on the same device', yLabel: 'speedup', refLine: 1, categories, series: d.devices.map((name, i) => ({ name, values: rows.map((r) => r.cells[i].speedup) })) }),
  ];
}

const NOTE = (d: DeviceComparison): string =>
  `Per device: the best of our methods (median), its GFLOPS, and its speedup over the fastest verified cuSPARSE/cuBLAS peer on that device. "vs ${d.devices[0]}" = ${d.devices[0]} time / this device's time (above 1: faster). "—": the case is not in that file or nothing ran ok.`;

function sources(files: DeviceFile[]): string[] {
  return files.map((f, i) => `${deviceNames(files)[i]}: ${f.path} (commit ${f.file.spbench.commit ?? 'unknown'}${f.file.env?.cuda ? `, CUDA ${f.file.env.cuda.runtime}` : ''})`);
}

export function renderDevicesMarkdown(files: DeviceFile[], d: DeviceComparison): string {
  const t = tableRows(d);
  return [`# spbench results across devices: ${d.devices.join(' vs ')}`, '', ...sources(files).map((s) => `* ${s}`), '', mdTable(t.header, t.rows, t.header.map((_, i) => i > 0)), '', `_${NOTE(d)}_`, ''].join('\n');
}

export function renderDevicesHtml(files: DeviceFile[], d: DeviceComparison): string {
  const t = tableRows(d);
  const head = `<tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const body = t.rows.map((r) => `<tr>${r.map((c, i) => `<td${i > 0 ? ' class="n"' : ''}>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>spbench results across devices</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1300px;color:#222;padding:0 1rem}table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #ddd;padding:.3rem .5rem}th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}svg{max-width:100%;height:auto}.note{color:#555;font-size:.85rem}</style>
</head>
<body>
<h1>spbench results across devices: ${esc(d.devices.join(' vs '))}</h1>
<ul>${sources(files).map((s) => `<li>${esc(s)}</li>`).join('')}</ul>
${deviceCharts(d).map((c) => `<figure>${c.svg}</figure>`).join('\n')}
<table><thead>${head}</thead><tbody>
${body}
</tbody></table>
<p class="note">${esc(NOTE(d))}</p>
</body>
</html>
`;
}

export function renderDevicesCsv(d: DeviceComparison): string {
  const lines = [['case', 'device', 'method', 'median_ms', 'gflops', 'fastest_peer', 'speedup_over_peer', 'ratio_vs_first'].join(',')];
  for (const r of d.rows) r.cells.forEach((c, i) => lines.push([r.id, d.devices[i], c.method, c.ms, c.gflops, c.peer, c.speedup, c.ratio].map(csvField).join(',')));
  return `${lines.join('\n')}\n`;
}

export function renderDevices(files: DeviceFile[], format: string): string {
  const d = compareDevices(files);
  if (format === 'md') return renderDevicesMarkdown(files, d);
  if (format === 'html') return renderDevicesHtml(files, d);
  if (format === 'csv') return renderDevicesCsv(d);
  return stackCharts(deviceCharts(d), `spbench: ${d.devices.join(' vs ')}`);
}
