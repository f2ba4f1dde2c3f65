#!/usr/bin/env node
// Matrix Market parse benchmark: our reader (dist/src/matrix/mtx-read.js: the native fast path, in
// the process through the Node-API addon by default and through spbench-cpu mtx2spb with
// SPBENCH_MTX_ADDON=0, then the TypeScript worker-thread and serial readers) and the whole
// `spbench convert --no-cache big.mtx big.spb` command against scipy.io.mmread(...).tocsr() (and
// mmread alone, see timeScipy) on the same ~240 MB
// real general coordinate files, one with short values and one with full-precision values.
// The files are generated deterministically (xorshift, fixed seed) and kept under os.tmpdir().
// Runs are interleaved (ours, scipy, ours, …) so that a busy machine hurts both sides alike.
// Usage: npm run build && npm run bench:parse -- [--runs 3] [--values short,full] [--mb 240] [--python python3]
//   short: values with 1-8 significant digits (typical hand-written / %g files)
//   full:  shortest round-trip repr of random doubles (16-17 digits, as scipy.io.mmwrite writes them)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, writeSync, closeSync, renameSync, statSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('runs', '3'));
const valueKinds = opt('values', 'short,full').split(',');
const targetMb = Number(opt('mb', '240'));
const python = opt('python', process.env.PYTHON ?? 'python3');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readerPath = join(root, 'dist/src/matrix/mtx-read.js');
if (!existsSync(readerPath)) {
  console.error(`bench-parse: ${readerPath} not found; run \`npm run build\` first`);
  process.exit(2);
}
const { readMtx } = await import(readerPath);
const { ensureExecutable } = await import(join(root, 'dist/src/native/executables.js'));
await ensureExecutable('cpu', { log: (s) => console.log(s) }); // build outside the timed runs
await ensureExecutable('mtx-addon', { log: (s) => console.log(s) }).catch((e) => console.log(`no addon: ${e.message}`));

function makeRng(seed) {
  let x = seed >>> 0 || 0x9e3779b9; // xorshift32: plenty for synthetic data
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

function formatValue(rnd, valueKind) {
  const u = rnd() * 2 - 1;
  if (valueKind === 'full') return String(u * 10 ** Math.floor(rnd() * 6 - 3));
  const digits = 1 + Math.floor(rnd() * 8);
  const exp = Math.floor(rnd() * 7) - 3;
  const v = Number((u * 10 ** exp).toPrecision(digits));
  return Math.abs(exp) >= 3 ? v.toExponential() : String(v);
}

/** Column-major sorted entries (as MATLAB / SuiteSparse write them), ~targetMb megabytes. */
function generate(path, valueKind) {
  const n = 2_000_000;
  const rnd = makeRng(20261122);
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  const target = targetMb * 1e6;
  const lines = [];
  let bytes = 0;
  let nnz = 0;
  // The size line needs nnz up front: reserve a fixed-width header, patch it at the end
  // (the size line is padded with blanks, which Matrix Market readers accept).
  const headerWidth = 128;
  writeSync(fd, ' '.repeat(headerWidth) + '\n');
  bytes = headerWidth + 1;
  outer: for (let j = 1; j <= n; j++) {
    const k = 1 + Math.floor(rnd() * 16);
    const rowsSeen = new Set();
    for (let t = 0; t < k; t++) rowsSeen.add(1 + Math.floor(rnd() * n));
    const rs = [...rowsSeen].sort((a, b) => a - b);
    for (const i of rs) {
      const line = `${i} ${j} ${formatValue(rnd, valueKind)}\n`;
      lines.push(line);
      bytes += line.length;
      nnz++;
    }
    if (lines.length > 50000) {
      writeSync(fd, lines.join(''));
      lines.length = 0;
    }
    if (bytes >= target) {
      writeSync(fd, lines.join(''));
      lines.length = 0;
      // remaining columns are empty; cols stays n
      break outer;
    }
  }
  if (lines.length) writeSync(fd, lines.join(''));
  const head = `%%MatrixMarket matrix coordinate real general\n${n} ${n} ${nnz}`;
  const padded = head.padEnd(headerWidth, ' ');
  writeSync(fd, padded, 0);
  closeSync(fd);
  renameSync(tmp, path);
}

const dir = join(tmpdir(), 'spbench-bench');
mkdirSync(dir, { recursive: true });

async function timeOurs(file, opts, env = {}) {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const t0 = performance.now();
    const { matrix, via } = await readMtx(file, opts);
    return { s: (performance.now() - t0) / 1000, nnz: matrix.rowPtr[matrix.rows], via: via ?? 'typescript' };
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

// readMtx in a new Node process, timed inside it after the imports (as timeScipy times mmread): its
// first parse, with the addon's load and build check, in a process whose memory is all new.
function timeFreshProcess(file) {
  const code = `const { readMtx } = await import(${JSON.stringify(readerPath)}); const t0 = performance.now(); const r = await readMtx(process.argv[1]); console.log((performance.now() - t0) / 1000, r.via ?? 'typescript', r.matrix.rowPtr[r.matrix.rows]);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`readMtx in a new process failed: ${r.stderr}`);
  const [s, via, nnz] = r.stdout.trim().split(/\s+/);
  return { s: Number(s), via, nnz: Number(nnz) };
}

function timeConvert(file) {
  const out = join(dir, 'convert-out.spb');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin/spbench.js'), 'convert', '--no-cache', file, out], { encoding: 'utf8', env: { ...process.env, CI: '1' } });
  const s = (performance.now() - t0) / 1000;
  rmSync(out, { force: true });
  if (r.status !== 0) throw new Error(`convert failed: ${r.stderr}`);
  return { s };
}

// scipy.io.mmread returns COO (scipy 1.12+: fast_matrix_market, C++ threads); readMtx returns
// canonical CSR (rows bucketed, columns sorted, duplicates summed). The like-for-like figure is
// therefore mmread(...).tocsr() (scipy's tocsr sums duplicates and sorts, has_canonical_format is
// checked); mmread alone is printed too. Both are timed inside one Python process, after imports (a
// new process each run; our readMtx is timed in this long-lived process and, timeFreshProcess, in a new
// Node process each run).
function timeScipy(file) {
  const code = [
    'import sys, time, scipy, scipy.io',
    't = time.perf_counter()',
    'm = scipy.io.mmread(sys.argv[1])',
    't1 = time.perf_counter()',
    'c = m.tocsr()',
    't2 = time.perf_counter()',
    'assert c.has_canonical_format',
    'print(t1 - t, t2 - t, c.nnz, scipy.__version__)',
  ].join('\n');
  const r = spawnSync(python, ['-c', code, file], { encoding: 'utf8' });
  if (r.status !== 0) return { error: (r.stderr || r.error?.message || '').trim().split('\n').pop() };
  const [coo, csr, nnz, version] = r.stdout.trim().split(/\s+/);
  return { coo: Number(coo), s: Number(csr), nnz: Number(nnz), version };
}

const summarize = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { best: sorted[0], median: sorted[Math.floor(sorted.length / 2)] };
};

console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}; node ${process.version}; runs ${runs}, interleaved; load average at start ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const valueKind of valueKinds) {
  const file = join(dir, `bench-${valueKind}-${targetMb}mb-v1.mtx`);
  if (!existsSync(file)) {
    process.stdout.write(`generating ${file} ...\n`);
    generate(file, valueKind);
  }
  const mb = statSync(file).size / 1e6;
  await timeOurs(file, { threads: 1, nativeMinBytes: Infinity }); // warm the page cache
  // nativeMinBytes Infinity = the TypeScript readers only; threads 1 = the serial one
  const variants = [
    { label: 'spbench readMtx (default: native)', run: () => timeOurs(file, {}), times: [] },
    { label: 'spbench readMtx (native: mtx2spb) ', run: () => timeOurs(file, {}, { SPBENCH_MTX_ADDON: '0' }), times: [] },
    { label: 'spbench readMtx, new process     ', run: async () => timeFreshProcess(file), times: [] },
    { label: 'spbench readMtx (TS workers)     ', run: () => timeOurs(file, { nativeMinBytes: Infinity }), times: [] },
    { label: 'spbench readMtx (TS serial)      ', run: () => timeOurs(file, { threads: 1, nativeMinBytes: Infinity }), times: [] },
    { label: 'spbench convert --no-cache → .spb', run: async () => timeConvert(file), times: [] },
  ];
  const scipyTimes = [];
  const scipyCooTimes = [];
  let scipyInfo = null;
  let nnzOurs = 0;
  for (let i = 0; i < runs; i++) {
    for (const v of variants) {
      const r = await v.run();
      v.times.push(r.s);
      if (r.via) v.via = r.via;
      if (r.nnz) nnzOurs = r.nnz;
    }
    const r = scipyInfo?.error ? scipyInfo : timeScipy(file);
    if (r.error) scipyInfo = r;
    else {
      scipyTimes.push(r.s);
      scipyCooTimes.push(r.coo);
      scipyInfo = r;
    }
  }
  const line = (label, t, extra) =>
    `${label}: best ${t.best.toFixed(3)} s  median ${t.median.toFixed(3)} s  -> ${(mb / t.best).toFixed(1)} MB/s best, ${(mb / t.median).toFixed(1)} MB/s median${extra ? `  (${extra})` : ''}`;
  console.log(`\nfile: ${file} (${mb.toFixed(1)} MB, values: ${valueKind}, nnz ${nnzOurs})`);
  for (const v of variants) console.log(line(v.label, summarize(v.times), v.via ? `parsed by: ${v.via}` : ''));
  if (scipyTimes.length) {
    const s = summarize(scipyTimes);
    const sc = summarize(scipyCooTimes);
    console.log(line('scipy mmread().tocsr() (canonical)', s, `scipy ${scipyInfo.version}, nnz ${scipyInfo.nnz}`));
    console.log(line('scipy.io.mmread alone (COO)      ', sc, 'not the same work: no CSR'));
    for (const v of variants) {
      const o = summarize(v.times);
      console.log(`ratio ${v.label.trim()} vs scipy mmread+tocsr (speed, >1 = faster): ${(s.best / o.best).toFixed(2)} (best), ${(s.median / o.median).toFixed(2)} (median); vs mmread alone: ${(sc.best / o.best).toFixed(2)} (best), ${(sc.median / o.median).toFixed(2)} (median)`);
    }
  } else {
    console.log(`scipy.io.mmread : not run (${scipyInfo?.error ?? 'python3 with scipy not found'})`);
  }
}
console.log(`load average at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
