#!/usr/bin/env node
// CI compile check (`npm run check:cuda`): every CUDA source that needs only the CUDA runtime is
// compiled with `nvcc -std=c++17 -arch=sm_90 -c` (cuda/drivers/probe.cu and cuda/check/*.cu, which
// include the kernel headers), and the CPU backend is built with g++. A kernel that does not compile
// fails CI. Without nvcc it says so and exits 1, unless --allow-missing is given.
// Uses the toolchain discovery of the compiled package (dist/), so run `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const allowMissing = process.argv.includes('--allow-missing');
const dist = join(root, 'dist', 'src', 'native', 'toolchain.js');
if (!existsSync(dist)) {
  console.error('check-cuda: dist/ is missing; run `npm run build` first.');
  process.exit(1);
}
const { findNvcc, findGxx, discoverToolchain } = await import(dist);
const { targetSpec } = await import(join(root, 'dist', 'src', 'native', 'targets.js'));

const cuda = join(root, 'cuda');
const out = mkdtempSync(join(tmpdir(), 'spbench-check-'));
const jobs = [];
const nvcc = findNvcc();
const gxx = findGxx();

if (nvcc) {
  const sources = [join(cuda, 'drivers', 'probe.cu')];
  const checkDir = join(cuda, 'check');
  if (existsSync(checkDir)) for (const f of readdirSync(checkDir).sort()) if (f.endsWith('.cu')) sources.push(join(checkDir, f));
  // Drivers that include cuSPARSE/cuBLAS headers compile only where those headers exist; a driver
  // that can leave its library peers out (-DSPB_NO_PEERS) is compiled without them instead.
  const withoutPeers = { 'spmm-cuda': '-DSPB_NO_PEERS', 'spgemm-cuda': '-DSPB_NO_PEERS' };
  const extra = new Map();
  const tc = await discoverToolchain();
  for (const t of ['spmm-cuda', 'spgemm-cuda']) {
    const spec = targetSpec(t);
    const src = join(cuda, spec.main);
    if (!existsSync(src)) continue;
    const missing = spec.needsLibs.filter((l) => !tc[l].header);
    if (!missing.length) sources.push(src);
    else if (withoutPeers[t]) {
      sources.push(src);
      extra.set(src, withoutPeers[t]);
      console.log(`${relative(root, src)}: ${missing.join(', ')} headers not installed here; compiling it without the library peers (${withoutPeers[t]})`);
    } else console.log(`skipped ${relative(root, src)}: needs ${missing.join(', ')} headers, not installed here`);
  }
  for (const src of sources) {
    const inc = ['cusparse', 'cublas'].map((l) => tc[l].header).filter(Boolean).map((h) => `-I${dirname(h)}`);
    const flags = extra.has(src) ? [extra.get(src)] : [];
    // --split-compile=0: nvcc optimizes a unit's functions on every core; the SpMM driver (all of its ~1200 kernels) is
    // the check's longest compile, ~200 s on one core of CI's 2-core machine and ~140 s split.
    jobs.push({ name: relative(root, src), cmd: nvcc, args: ['-std=c++17', '-arch=sm_90', '--split-compile=0', ...new Set(inc), ...flags, '-c', src, '-o', join(out, `${basename(src)}.o`)] });
  }
  // User-kernel plugins (docs/plugins.md): both runner drivers and every example plugin compile against the
  // public header alone (cuda/include/spbench_plugin.h), with no cuSPARSE/cuBLAS include path.
  const plugins = [join(cuda, 'drivers', 'plugin_spmm.cu'), join(cuda, 'drivers', 'plugin_spgemm.cu')];
  const examples = join(root, 'examples', 'plugins');
  if (existsSync(examples)) for (const f of readdirSync(examples).sort()) if (f.endsWith('.cu')) plugins.push(join(examples, f));
  for (const src of plugins) {
    if (!existsSync(src)) continue;
    jobs.push({ name: relative(root, src), cmd: nvcc, args: ['-std=c++17', '-arch=sm_90', `-I${join(cuda, 'include')}`, '-c', src, '-o', join(out, `plugin-${basename(src)}.o`)] });
  }
} else {
  console.log(`nvcc: not found (set SPBENCH_NVCC or CUDA_HOME)${allowMissing ? '; skipping the CUDA sources (--allow-missing)' : ''}`);
}
if (gxx) {
  const cpu = targetSpec('cpu');
  jobs.push({ name: `cuda/${cpu.main} (g++)`, cmd: gxx, args: [...cpu.flags, '-Wall', '-Wextra', join(cuda, cpu.main), '-o', join(out, 'spbench-cpu')] });
} else {
  console.log('g++: not found; the CPU backend cannot be checked');
}

function run(job) {
  return new Promise((resolve) => {
    const child = spawn(job.cmd, job.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', (e) => resolve({ ok: false, text: `${text}cannot run ${job.cmd}: ${e.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, text }));
  });
}

// A small pool: compiles are CPU-bound, one per core.
let next = 0;
let failed = 0;
async function worker() {
  while (next < jobs.length) {
    const job = jobs[next++];
    const t0 = Date.now();
    const r = await run(job);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`${r.ok ? 'OK    ' : 'FAILED'} ${job.name} (${secs} s)`);
    if (!r.ok) {
      failed++;
      console.log(`  ${job.cmd} ${job.args.join(' ')}\n${r.text.trimEnd().replace(/^/gm, '  ')}`);
    } else if (r.text.trim()) {
      console.log(r.text.trimEnd().replace(/^/gm, '  '));
    }
  }
}
await Promise.all(Array.from({ length: Math.max(1, Math.min(cpus().length, 4)) }, worker));
rmSync(out, { recursive: true, force: true });

const missing = (!nvcc && !allowMissing) || !gxx;
console.log(`check-cuda: ${jobs.length - failed}/${jobs.length} compiled${failed ? `, ${failed} FAILED` : ''}${missing ? '; a required compiler is missing' : ''}`);
process.exit(failed || missing ? 1 : 0);
