import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSink, SpgemmRequest, SpmmRequest } from '../src/bench/api.js';
import { ResultFile, type CaseResult } from '../src/results/schema.js';
import { loadSuite, parseSuite } from '../src/suite/load.js';
import { etaMs as eta } from '../src/util/duration.js';
import { runSuite, type Runners, type SuiteSink } from '../src/suite/run.js';
import type { ProgressEvent as SuiteProgress } from '../src/progress/event.js';
import { runSuiteCommand } from '../src/suite/command.js';
import { RuntimeFailure } from '../src/util/errors.js';
import { method, resultFile } from './report-fixtures.js';
import { cli, REPO, tempDir, writeJson } from './report-cli.js';

const GOOD = {
  name: 'demo',
  defaults: { samples: 12, mode: 'graph', precision: ['f32', 'f64'] },
  cases: [
    { op: 'spmm', name: 'small', batch: 100, dim: 64, nnzRow: '1:5', nb: [16, 64] },
    { op: 'spmm', name: 'files', matrices: 'graphs/', nb: 32, samples: 40 },
    { op: 'spgemm', name: 'rmat', gen: 'rmat:scale=10,ef=8', precision: 'f64' },
  ],
};

// a suite folder with the graphs/ that GOOD's "files" case names (suite paths must exist, as on the command line)
const SUITE_DIR = tempDir();
mkdirSync(join(SUITE_DIR, 'graphs'));
const DEMO = join(SUITE_DIR, 'demo.json');

function errorOf(obj: unknown): string {
  try {
    parseSuite(obj, join(SUITE_DIR, 'suite.json'));
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('expected the suite to be rejected');
}

test('a good suite validates; defaults fill cases, scalars become lists, paths resolve next to the suite', () => {
  const s = parseSuite(GOOD, DEMO);
  const [small, files, rmat] = s.cases;
  assert.equal(small.op, 'spmm');
  if (small.op === 'spmm') {
    assert.deepEqual(small.batch, [100]);
    assert.deepEqual(small.dim, ['64']);
    assert.deepEqual(small.nnzRow, ['1:5']);
    assert.deepEqual(small.mode, ['graph']);
    assert.deepEqual(small.precision, ['f32', 'f64']);
    assert.equal(small.samples, 12);
    assert.equal(small.warmup, 5); // built-in default
    assert.equal(small.methods, 'all');
  }
  if (files.op === 'spmm') {
    assert.deepEqual(files.matrices, [join(SUITE_DIR, 'graphs')]);
    assert.equal(files.samples, 40); // the case's own value beats defaults
  }
  if (rmat.op === 'spgemm') {
    assert.deepEqual(rmat.precision, ['f64']);
    assert.deepEqual(rmat.gen, ['rmat:scale=10,ef=8']);
    assert.equal(rmat.samples, 12);
  }
});

test('bad suites give errors naming the file and the JSON path of the field', () => {
  const bad = (mut: (s: typeof GOOD & Record<string, unknown>) => void) => {
    const s = structuredClone(GOOD) as typeof GOOD & Record<string, unknown>;
    mut(s);
    return errorOf(s);
  };
  assert.match(bad((s) => ((s.cases[0] as Record<string, unknown>).nb = [16, 'x'])), /^invalid suite \S*suite\.json: cases\[0\]\.nb: --nb: 'x' is not a positive integer$/);
  assert.match(bad((s) => ((s.cases[0] as Record<string, unknown>).nnz_row = 3)), /cases\[0\]\.nnz_row: unknown field/);
  assert.match(bad((s) => ((s.cases[1] as Record<string, unknown>).op = 'spmv')), /cases\[1\]\.op: Invalid discriminator value/);
  assert.match(bad((s) => ((s.cases[0] as Record<string, unknown>).dim = '32-256')), /cases\[0\]\.dim: --dim must be a positive integer or MIN:MAX range, got "32-256"/);
  assert.match(bad((s) => ((s.cases[0] as Record<string, unknown>).precision = 'f8')), /cases\[0\]\.precision: --precision: 'f8' is not one of f32, f64, f16, bf16$/);
  assert.match(bad((s) => (s.cases[2].precision = 'bf16')), /cases\[2\]\.precision: --precision bf16: spgemm runs f32 and f64 only \(f16 and bf16 are for spmm\)$/);
  assert.match(bad((s) => ((s.cases[1] as Record<string, unknown>).batch = 4)), /cases\[1\]\.matrices: --matrices: cannot be combined with --batch \(the files are the batch\)/);
  assert.match(bad((s) => ((s.cases[1] as Record<string, unknown>).matrices = 'nosuch/')), /cases\[1\]\.matrices: --matrices: '\S*nosuch' does not exist/);
  assert.match(bad((s) => delete (s.cases[2] as Record<string, unknown>).gen), /cases\[2\]\.gen: spgemm: give at least one matrix file or --gen SPEC/);
  assert.match(bad((s) => (s.cases[2].name = 'small')), /cases\[2\]\.name: duplicate case name "small" \(also cases\[0\]\)/);
  assert.match(bad((s) => ((s.defaults as Record<string, unknown>).samples = 0)), /defaults\.samples: --samples: '0' is not auto or an integer in 1\.\.100000/);
  assert.match(bad((s) => ((s.defaults as Record<string, unknown>).bogus = 1)), /defaults\.bogus: unknown field/);
  assert.match(bad((s) => (s.cases = [])), /cases: Too small/);
  assert.match(bad((s) => (s.name = 'has space')), /name: expected a name of letters/);
  assert.match(errorOf([1, 2]), /suite\.json: \(top level\): expected an object/);
  // a case without batch/dim/nnzRow takes the same defaults as the command line, but samples auto (the suites' default)
  const noAxes = parseSuite({ name: 'd', cases: [{ op: 'spmm', name: 'a' }, { op: 'spgemm', name: 'b', gen: 'banded:n=9,bw=1' }] }, DEMO).cases;
  assert.deepEqual(noAxes.map((c) => [c.warmup, c.samples]), [[5, 'auto'], [5, 'auto']]);
  if (noAxes[0].op === 'spmm') assert.deepEqual([noAxes[0].batch, noAxes[0].dim, noAxes[0].nnzRow, noAxes[0].nb], [[100], ['64'], ['3'], [64]]);
});

test('the shipped suites in reports/suites validate and cover the seeds\' figure grids', async () => {
  const dir = join(REPO, 'reports', 'suites');
  const names = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  assert.deepEqual(names, ['ci-smoke.json', 'paper-spmm.json', 'spgemm-wide.json', 'spgemm.json', 'spmm-wide.json']);
  const suites = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await loadSuite(join(dir, n))] as const)));
  const paper = suites['paper-spmm.json'].cases.map((c) => c.name);
  for (const f of ['fig6a', 'fig6b', 'fig7a', 'fig7b', 'fig7c', 'fig7d', 'fig7e', 'fig7f', 'fig8']) assert.ok(paper.includes(f), f);
  const fig8 = suites['paper-spmm.json'].cases.find((c) => c.name === 'fig8')!;
  if (fig8.op === 'spmm') {
    assert.deepEqual(fig8.dim, ['32:256']);
    assert.equal(Math.max(...fig8.nb), 1024);
  }
  const gens = suites['spgemm.json'].cases.flatMap((c) => (c.op === 'spgemm' ? c.gen ?? [] : []));
  assert.deepEqual(gens, ['stencil:dims=3,n=40,points=27', 'stencil:dims=3,n=64,points=27', 'stencil:dims=2,n=1000,points=5', 'uniform:rows=200000,nnz_row=8', 'rmat:scale=16,ef=8', 'rmat:scale=18,ef=4']);
  for (const c of suites['ci-smoke.json'].cases) assert.ok(typeof c.samples === 'number' && c.samples >= 20, 'compare needs enough samples');
  // spmm-wide (issue 10): dims 16-1024, nnz/row 1 to dim/2, nB 8-1024, both layouts, f32/f64/f16/bf16, batch 10-10000, mixed
  const wide = suites['spmm-wide.json'].cases.flatMap((c) => (c.op === 'spmm' ? [c] : []));
  const all = <K extends 'dim' | 'nnzRow' | 'nb' | 'batch' | 'precision'>(k: K) => wide.flatMap((c) => (c[k] ?? []) as unknown[]).map(String);
  for (const d of ['16', '1024', '16:256']) assert.ok(all('dim').includes(d), `dim ${d}`);
  for (const n of ['1', '512']) assert.ok(all('nnzRow').includes(n), `nnz/row ${n}`);
  for (const nb of ['8', '1024']) assert.ok(all('nb').includes(nb), `nB ${nb}`);
  for (const b of ['10', '10000']) assert.ok(all('batch').includes(b), `batch ${b}`);
  assert.deepEqual([...new Set(all('precision'))].sort(), ['bf16', 'f16', 'f32', 'f64']);
  // 16-bit cells: row-major f16 and bf16, and a column-major f16 one
  const half = wide.filter((c) => c.precision.some((p) => p === 'f16' || p === 'bf16'));
  assert.deepEqual(half.map((c) => [c.layout, [...c.precision].sort().join(',')]), [['row', 'bf16,f16'], ['col', 'f16']]);
  assert.deepEqual([...new Set(wide.map((c) => c.layout))].sort(), ['col', 'row']);
  for (const c of wide) if (Array.isArray(c.methods)) assert.ok(c.methods.includes('auto'), `${c.name} runs auto`);
});

/** Fake cores: one case per n_B (spmm) or per precision (spgemm), like the real ones. */
function fakeRunners(fail?: string): Runners & { calls: (SpmmRequest | SpgemmRequest)[] } {
  const calls: (SpmmRequest | SpgemmRequest)[] = [];
  const mk = (id: string, params: CaseResult['params']): CaseResult => ({ id, op: 'spmm', label: id, params, input: {}, results: [method('batched-csr', 'ours', [1, 1.1, 0.9])] });
  return {
    calls,
    async spmm(req: SpmmRequest, sink: RunSink) {
      calls.push(req);
      if (fail && req.samples === 99) throw new RuntimeFailure(fail, 'stderr tail');
      const cases = req.nb.map((nb, i) => {
        sink.progress({ done: i, total: req.nb.length, label: `n_B ${nb}`, elapsedMs: 0 });
        return mk(`spmm/nb=${nb}`, { nb, precision: req.precision[0] });
      });
      return resultFile(cases);
    },
    async spgemm(req: SpgemmRequest) {
      calls.push(req);
      return resultFile(req.precision.map((p) => ({ ...mk(`spgemm/${req.gen[0]}/${p}`, { precision: p }), op: 'spgemm' as const })));
    },
  };
}

function recordingSink(): SuiteSink & { progress: (p: SuiteProgress) => void; seen: SuiteProgress[]; done: string[]; failed: string[] } {
  const seen: SuiteProgress[] = [];
  const done: string[] = [];
  const failed: string[] = [];
  return { seen, done, failed, progress: (p) => seen.push(p), caseDone: (n) => done.push(n), caseFailed: (n) => failed.push(n), log: () => undefined };
}

test('runSuite runs every case with its request and merges one valid result file', async () => {
  const suite = parseSuite(GOOD, DEMO);
  const runners = fakeRunners();
  const sink = recordingSink();
  let clock = 0;
  const out = await runSuite(suite, { backend: 'cpu', command: ['spbench', 'run', 'demo.json'], runners, sink, now: () => (clock += 100) });
  assert.equal(out.error, null);
  assert.ok(out.file);
  assert.ok(ResultFile.safeParse(out.file).success);
  assert.deepEqual(out.file!.cases.map((c) => c.id), ['small/spmm/nb=16', 'small/spmm/nb=64', 'files/spmm/nb=32', 'rmat/spgemm/rmat:scale=10,ef=8/f64']);
  assert.equal(out.file!.cases[0].params.suite_case, 'small');
  assert.deepEqual(out.file!.command, ['spbench', 'run', 'demo.json']);
  const req = runners.calls[0] as SpmmRequest;
  assert.deepEqual([req.batch, req.dim, req.nnzRow, req.nb, req.mode, req.samples, req.backend], [[100], ['64'], ['1:5'], [16, 64], ['graph'], 12, 'cpu']);
  assert.deepEqual(sink.done, ['small', 'files', 'rmat']);
  // progress: cases done never goes back, the final report says 3/3, the ETA appears once work is done
  const done = sink.seen.map((p) => p.done);
  assert.deepEqual(done, [...done].sort((a, b) => a - b));
  assert.equal(sink.seen.at(-1)!.done, 3);
  assert.ok(sink.seen.some((p) => p.label === 'small' && p.etaMs != null && p.etaMs > 0));
  assert.equal(eta(1000, 0.25), 3000);
  assert.equal(eta(1000, 0), null);
});

test('a case that throws does not lose the others, and the run still fails', async () => {
  const s = structuredClone(GOOD);
  (s.cases[1] as Record<string, unknown>).samples = 99; // the fake core throws on this one
  const sink = recordingSink();
  const out = await runSuite(parseSuite(s, DEMO), { backend: 'cpu', command: [], runners: fakeRunners('spbench-cpu crashed (signal SEGV)'), sink });
  assert.deepEqual(sink.failed, ['files']);
  assert.deepEqual(out.file!.cases.map((c) => String(c.params.suite_case)), ['small', 'small', 'rmat']);
  assert.ok(out.error instanceof RuntimeFailure);
  assert.match(out.error!.message, /1 suite case\(s\) failed: files: spbench-cpu crashed/);
});

test('runSuiteCommand writes the merged result file with --json (plain progress lines)', async () => {
  const suitePath = writeJson(SUITE_DIR, 'demo-cmd.json', GOOD);
  const out = join(SUITE_DIR, 'out.json');
  const write = process.stderr.write;
  const lines: string[] = [];
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    await runSuiteCommand(suitePath, { json: out, backend: 'cpu', runners: fakeRunners(), interactive: false });
  } finally {
    process.stderr.write = write;
  }
  const file = ResultFile.parse(JSON.parse(readFileSync(out, 'utf8')));
  assert.equal(file.cases.length, 4);
  const text = lines.join('');
  // the one progress line of spbench (src/progress/event.ts): no ETA before a case has finished
  assert.match(text, /\[0\/3\] demo: small \(spmm batch 100 .*\) · elapsed \d+ s\n/);
  assert.match(text, /\[1\/3\] demo: files \(spmm matrices 1 .*\) · elapsed \d+ s · ETA \d+ s\n/);
  assert.match(text, /done rmat: 1 case\(s\), 1 result\(s\)/);
  assert.match(text, /wrote 4 case\(s\) of suite "demo" to/);
});

test('CLI: run --validate lists the cases; a bad suite exits 2 naming the field', () => {
  const dir = SUITE_DIR;
  const ok = cli(['run', writeJson(dir, 'ok.json', GOOD), '--validate']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /suite "demo" is valid, 3 case\(s\)/);
  const broken = structuredClone(GOOD);
  (broken.cases[0] as Record<string, unknown>).batch = -1;
  const bad = cli(['run', writeJson(dir, 'bad.json', broken), '--json', join(dir, 'x.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /bad\.json: cases\[0\]\.batch: --batch: '-1' is not a positive integer/);
  const notJson = cli(['run', writeJson(dir, 'nj.json', '{ nope')]);
  assert.equal(notJson.code, 2);
  assert.match(notJson.stderr, /suite file .*nj\.json is not JSON/);
});

// The same invalid request, given on the command line and as a suite case, is refused with the same sentence.
const SAME_REFUSAL: [string[], Record<string, unknown>, string][] = [
  [['spmm', '--dim', '256:32'], { op: 'spmm', dim: '256:32' }, '--dim must be a positive integer or MIN:MAX range, got "256:32" (min 256 is greater than max 32)'],
  [['spgemm', '--gen', 'rmat:scale=abc'], { op: 'spgemm', gen: 'rmat:scale=abc' }, 'bad generator spec "rmat:scale=abc": missing ef='],
  [['spgemm', '--gen', 'rmat:scale=abc,ef=2'], { op: 'spgemm', gen: 'rmat:scale=abc,ef=2' }, 'bad generator spec "rmat:scale=abc,ef=2": scale=abc is not a non-negative integer'],
  [['spmm', '--nb', '0'], { op: 'spmm', nb: 0 }, "--nb: '0' is not a positive integer"],
  [['spmm', '--matrices', '/no/such/graphs'], { op: 'spmm', matrices: '/no/such/graphs' }, "--matrices: '/no/such/graphs' does not exist"],
  [['spgemm', '--gen', 'banded:n=9,bw=1', '--verify', 'rows:0'], { op: 'spgemm', gen: 'banded:n=9,bw=1', verify: 'rows:0' }, "--verify: expected auto, full, none or rows:N (N >= 1 rows checked), received 'rows:0'"],
  [['spgemm', '--gen', 'banded:n=9,bw=1', '--gen-b', 'banded:n=0,bw=1'], { op: 'spgemm', gen: 'banded:n=9,bw=1', gen_b: 'banded:n=0,bw=1' }, 'bad generator spec "banded:n=0,bw=1": n=0 must be from 1 to 2147483647'],
  [['spgemm', '--gen', 'banded:n=9,bw=1', 'banded:n=8,bw=1', '--gen-b', 'banded:n=9,bw=1'], { op: 'spgemm', gen: ['banded:n=9,bw=1', 'banded:n=8,bw=1'], gen_b: 'banded:n=9,bw=1' }, '--gen-b: needs exactly one --gen (the A of A·B) and no matrix files, got 2 --gen and 0 file(s)'],
];
for (const [args, kase, message] of SAME_REFUSAL) {
  test(`refused alike by the CLI and by run --validate: ${message}`, () => {
    const fromCli = cli(args);
    assert.equal(fromCli.code, 2);
    assert.equal(fromCli.stderr, `spbench: ${message}\n`);
    const suite = writeJson(SUITE_DIR, 'same.json', { name: 'same', cases: [{ name: 'c', ...kase }] });
    const fromSuite = cli(['run', suite, '--validate']);
    assert.equal(fromSuite.code, 2);
    assert.equal(fromSuite.stdout, '');
    const field = String(Object.keys(kase).filter((k) => k !== 'op').at(-1));
    assert.equal(fromSuite.stderr, `spbench: invalid suite ${suite}: cases[0].${field}: ${message}\n`);
  });
}

test('merging files from different backends keeps each case\'s backend and warns', async () => {
  const { mergeResultFiles } = await import('../src/suite/merge.js');
  const c: CaseResult = { id: 'spmm/x', op: 'spmm', label: 'x', params: { nb: 1 }, input: {}, results: [] };
  const gpu = resultFile([c]);
  const cpu = resultFile([{ ...c, id: 'spgemm/y' }], { backend: 'cpu', device: null, env: null });
  const { file, warnings } = mergeResultFiles([{ name: 'a', file: gpu }, { name: 'b', file: cpu }], { command: ['spbench'], created: 'now' });
  assert.deepEqual(file.cases.map((k) => [k.id, k.params.backend, k.params.suite_case]), [['a/spmm/x', 'cuda', 'a'], ['b/spgemm/y', 'cpu', 'b']]);
  assert.match(warnings[0], /different backends\/devices \(cuda NVIDIA H100 80GB HBM3, cpu\)/);
  assert.equal(file.backend, 'cuda');
});
