import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readResultFile } from '../src/results/read.js';
import { resultFileText, writeResultFile } from '../src/results/write.js';
import { renderReport } from '../src/report/index.js';
import { buildFigures } from '../src/report/model.js';
import { barChart, lineChart } from '../src/report/svg.js';
import { renderJunit } from '../src/compare/render.js';
import { compareResults } from '../src/compare/compare.js';
import { resultFile, sampleFile } from './report-fixtures.js';
import { checkWellFormedXml } from './report-xml.js';
import { cli, tempDir, writeJson } from './report-cli.js';

const file = sampleFile();

/** Splits GitHub-flavoured tables out of Markdown: rows of cells (escaped pipes kept inside cells). */
function mdTables(md: string): string[][][] {
  const tables: string[][][] = [];
  let cur: string[][] | null = null;
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) {
      const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
      if (!cur) tables.push((cur = []));
      cur.push(cells);
    } else cur = null;
  }
  return tables;
}

/** RFC 4180 parser for the CSV test. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') q = false;
      else field += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\r' && text[i + 1] === '\n') rows.push([...row, field]), (row = []), (field = ''), i++;
    else field += ch;
  }
  return rows;
}

test('figures: the SpMM sweep becomes one n_B figure, SpGEMM one per-matrix figure per precision', () => {
  const figs = buildFigures(file);
  assert.deepEqual(figs.map((f) => f.kind), ['nb', 'matrix', 'matrix']);
  const nb = figs[0];
  assert.equal(nb.kind, 'nb');
  if (nb.kind === 'nb') {
    assert.deepEqual(nb.nbs, [16, 32, 64, 128, 256]);
    assert.equal(nb.methods.length, 6);
    assert.match(nb.title, /fig7b: SpMM batch=100, dim=64, nnz\/row=3, f32, graph, row/);
  }
  const sp = figs[1];
  if (sp.kind === 'matrix') {
    assert.equal(sp.matrices.length, 2);
    assert.equal(sp.baseline(sp.matrices[0]), 'cusparse-alg1'); // the fastest peer
    assert.match(sp.title, /SpGEMM f32/);
  }
});

test('markdown: one GitHub table per figure with the right columns', () => {
  const md = renderReport(file, 'md');
  const tables = mdTables(md);
  assert.equal(tables.length, 3);
  const [nb, f32] = tables;
  assert.deepEqual(nb[0], ['Method', 'Family', 'n_B=16', 'n_B=32', 'n_B=64', 'n_B=128', 'n_B=256']);
  assert.match(nb[1].join(' '), /^--- --- ---: ---: ---: ---: ---:$/);
  for (const row of nb) assert.equal(row.length, 7);
  assert.equal(nb.length, 2 + 6);
  const tf = nb.find((r) => r[0] === 'tf-sparse-tensor')!;
  assert.equal(tf[4], 'FAILED'); // n_B = 64 failed: no speed figure
  assert.ok(nb.find((r) => r[0] === 'cusparse-strided')!.slice(2).every((c) => c === 'n/a'));
  assert.deepEqual(f32[0], ['Matrix', 'Method', 'Status', 'Median ms', 'GFLOPS', 'Speedup', 'Peak MiB', 'Memory ratio']);
  for (const row of f32) assert.equal(row.length, 8);
  const hash = f32.find((r) => r[1] === 'hash-spgemm')!;
  assert.ok(Number(hash[5]) > 4 && Number(hash[5]) < 6, `speedup ${hash[5]}`); // 6 ms / 1.2 ms
  assert.equal(hash[7], '0.25'); // 2^28 / 2^30
  assert.match(md, /H100 80GB HBM3 \(cc 9\.0, 132 SMs\), CUDA runtime 13\.0/);
});

test('csv: one row per method × case, proper quoting, same column count everywhere', () => {
  const rows = parseCsv(renderReport(file, 'csv'));
  const methods = file.cases.reduce((n, c) => n + c.results.length, 0);
  assert.equal(rows.length, 1 + methods);
  for (const r of rows) assert.equal(r.length, rows[0].length);
  const h = rows[0];
  for (const col of ['case_id', 'op', 'method', 'status', 'median_ms', 'gflops', 'peak_mem_bytes', 'param_nb', 'input_name', 'samples']) assert.ok(h.includes(col), col);
  const quoted = rows.find((r) => r[h.indexOf('input_name')].includes('"quoted"'))!;
  assert.equal(quoted[h.indexOf('input_name')], 'rmat:scale=16,ef=8 "quoted", comma');
  const failed = rows.find((r) => r[h.indexOf('status')] === 'failed')!;
  assert.equal(failed[h.indexOf('gflops')], '');
  assert.equal(failed[h.indexOf('verify_detail')], 'C[3][7] = NaN (unwritten)');
});

test('svg: well-formed XML with titles, axis labels, legends and log2 n_B ticks', () => {
  const svg = renderReport(file, 'svg');
  checkWellFormedXml(svg);
  assert.equal((svg.match(/<svg /g) ?? []).length, 1 + 1 + 3 * 2); // outer + line chart + (GFLOPS, speedup, memory) × 2 precisions
  assert.match(svg, />n_B \(columns of B\)</);
  assert.match(svg, />GFLOPS</);
  assert.match(svg, />speedup \(×\)</);
  assert.match(svg, />peak memory ratio</);
  for (const tick of ['16', '32', '64', '128', '256']) assert.match(svg, new RegExp(`text-anchor="middle" fill="#333">${tick}</text>`));
  for (const m of ['batched-csr', 'cusparse-blockdiag', 'hash-spgemm', 'cusparse-alg3']) assert.match(svg, new RegExp(`>${m}</text>`));
  assert.match(svg, /&quot;quoted&quot;/); // names are escaped
});

test('svg charts: empty and degenerate inputs still draw well-formed charts', () => {
  checkWellFormedXml(lineChart({ title: 'a <b>', xLabel: 'x', yLabel: 'y', series: [] }).svg);
  checkWellFormedXml(lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [{ x: 64, y: null }] }] }).svg);
  const bars = barChart({ title: 't', yLabel: 'y', categories: ['a', 'b'], refLine: 1, series: [{ name: 's', values: [0.01, 50] }] });
  checkWellFormedXml(bars.svg);
  assert.match(bars.svg, /\(log scale\)/); // 5000× span: log axis
  checkWellFormedXml(renderReport(resultFile([]), 'svg'));
});

test('html: self-contained page with inline SVG, tables and no external references', () => {
  const html = renderReport(file, 'html');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.equal((html.match(/<section>/g) ?? []).length, 3);
  assert.equal((html.match(/<table>/g) ?? []).length, 3);
  assert.equal((html.match(/<svg /g) ?? []).length, 7);
  assert.doesNotMatch(html, /\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
  assert.doesNotMatch(html, /<script|<link|@import|url\(/i);
  for (const svg of html.match(/<svg [\s\S]*?<\/svg>/g) ?? []) checkWellFormedXml(svg);
});

test('junit from compare is well-formed XML', async () => {
  const r = await compareResults(file, file, { threshold: 5, alpha: 0.05, strictEnv: false });
  checkWellFormedXml(renderJunit(r));
  assert.equal(r.exitCode, 1); // the fixture has a failed method: failure in "new" even against itself
});

test('CLI: report writes every format atomically; bad input leaves no output file (exit 2)', () => {
  const dir = tempDir();
  const src = writeJson(dir, 'results.json', file);
  for (const format of ['md', 'csv', 'html', 'svg']) {
    const out = join(dir, 'new-folder', `report.${format}`); // the folder is created
    const r = cli(['report', src, '--format', format, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(readFileSync(out, 'utf8').length > 200);
  }
  const bad = cli(['report', src, '--format', 'pdf', '-o', join(dir, 'x.pdf')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be one of md, csv, html, svg/);
  const broken = writeJson(dir, 'broken.json', { schema: 'spbench-results/1', cases: 3 });
  const r = cli(['report', broken, '-o', join(dir, 'y.md')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /broken\.json is not a valid spbench result file: .*created/);
  assert.equal(existsSync(join(dir, 'y.md')), false);
});

test('result files may be gzip-compressed: written so when the name ends in .gz, read by report either way', async () => {
  const dir = tempDir();
  const gz = join(dir, 'results.json.gz');
  writeResultFile(gz, file);
  const bytes = readFileSync(gz);
  assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b], 'gzip magic');
  assert.deepEqual(JSON.parse(gunzipSync(bytes).toString('utf8')), JSON.parse(resultFileText(file)));
  assert.deepEqual(await readResultFile(gz), await readResultFile(writeJson(dir, 'plain.json', resultFileText(file))));
  const plain = cli(['report', join(dir, 'plain.json')]);
  const packed = cli(['report', gz]);
  assert.equal(packed.code, 0, packed.stderr);
  assert.equal(packed.stdout, plain.stdout);
  const torn = join(dir, 'torn.json.gz');
  writeFileSync(torn, bytes.subarray(0, 40));
  const r = cli(['report', torn]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /result file .*torn\.json\.gz is not valid gzip: /);
});

test('the XML check used above rejects malformed documents', () => {
  for (const bad of ['<a><b></a>', '<a x=1/>', '<a>&nope;</a>', '<a></a><b/>', '<a x="1" x="2"/>', '<a>', 'text<a/>']) {
    assert.throws(() => checkWellFormedXml(bad), Error, bad);
  }
  checkWellFormedXml('<?xml version="1.0"?>\n<a x="1"><!-- c --><b/>t &amp; u</a>\n');
});

test('a single-n_B figure gets the detailed table (µs, GB/s, speedup over the fastest peer) and a bar chart', () => {
  const one = { ...file, cases: file.cases.filter((c) => c.params.nb === 128) };
  const [t] = mdTables(renderReport(one, 'md'));
  assert.deepEqual(t[0], ['Method', 'Family', 'Status', 'Median µs', 'GFLOPS', 'GB/s', 'Peak MiB', 'Speedup vs cublas-gemm-strided']);
  const ours = t.find((r) => r[0] === 'batched-csr')!;
  assert.ok(Number(ours[7]) > 1.5, `speedup ${ours[7]}`); // 6.28 µs vs 3.28 µs in the fixture
  assert.equal(t.find((r) => r[0] === 'cublas-gemm-strided')![7], '1');
  const svg = renderReport(one, 'svg');
  checkWellFormedXml(svg);
  assert.match(svg, />n_B = 128</);
  assert.equal((svg.match(/<rect x=[^>]*fill="#0072B2"><title>/g) ?? []).length, 1);
});

test('per-matrix figures without any peer (CPU backend) plot GFLOPS and absolute peak memory', () => {
  const cpu = { ...file, cases: file.cases.filter((c) => c.op === 'spgemm').map((c) => ({ ...c, results: c.results.filter((r) => r.method === 'hash-spgemm').map((r) => ({ ...r, family: 'reference' as const })) })) };
  const svg = renderReport(cpu, 'svg');
  checkWellFormedXml(svg);
  assert.match(svg, /SpGEMM f32: GFLOPS/);
  assert.match(svg, />peak memory \(MiB\)</);
  assert.doesNotMatch(svg, /speedup/);
});

test('matrixName: SpGEMM cases are named by their operands, so a/m.mtx and b/m.mtx stay apart in figures', async () => {
  const { matrixName } = await import('../src/report/model.js');
  const c = (params: Record<string, string>, source: string) => ({ id: 'x', op: 'spgemm' as const, label: 'x', params, input: { source }, results: [] });
  assert.equal(matrixName(c({ a: 'a/m.mtx', b: 'a/m.mtx' }, '/d/a/m.mtx')), 'a/m.mtx');
  assert.equal(matrixName(c({ a: 'b/m.mtx', b: 'b/m.mtx' }, '/d/b/m.mtx')), 'b/m.mtx');
  assert.equal(matrixName(c({ a: 'x.mtx', b: 'y.mtx' }, '/d/x.mtx')), 'x.mtx · y.mtx');
  assert.equal(matrixName({ ...c({}, '/d/q/z.mtx'), op: 'spmm' }), 'z.mtx');
});
