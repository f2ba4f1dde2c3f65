// Carries out an SpmmRequest: backend, executable, input batches (.spb in a temporary directory),
// one native run per (input, precision, mode) sweeping n_B, and the result file.
import { rm } from 'node:fs/promises';
import { freemem, totalmem } from 'node:os';
import { join } from 'node:path';
import type { CsrMatrix } from '../matrix/types.js';
import { RuntimeFailure, UserError } from '../util/errors.js';
import { samplingArgs, type Samples, type SpmmRequest } from './api.js';
import { realDeps, type BenchDeps } from './deps.js';
import { assembleResultFile } from './env.js';
import type { BenchSink } from './api.js';
import { describeMatrices, ProgressTracker, withTempDir } from './native-run.js';
import { invokeRepeated, type RepeatedLine } from './repeat.js';
import type { CaseResult, ResultFile } from '../results/schema.js';
import type { EnvLine } from '../native/protocol.js';
import { checkSpmmFits, countCases, planSpmm, type SpmmRunPlan, type SpmmSource } from './spmm-plan.js';
import { toMethodResult } from './figures.js';
import { methodMetrics, profileMethod, type ProfileRecord } from './profile.js';
import { findNcu } from '../native/toolchain.js';
import { spbValueType } from '../kinds.js';
import { prepareUserKernels, spmmUserResults } from '../plugins/bench.js';
import { pythonResults, splitMethods } from '../plugins/python.js';

/** Timing on a GPU needs enough samples for a median and a significance test in compare. */
export const GPU_MIN_SAMPLES = 20;

export function checkGpuSamples(backend: 'cpu' | 'cuda', samples: Samples): void {
  if (backend === 'cuda' && samples !== 'auto' && samples < GPU_MIN_SAMPLES) {
    throw new UserError(`--samples: '${samples}' is below ${GPU_MIN_SAMPLES}, the minimum on the GPU backend`);
  }
}

async function loadSource(deps: BenchDeps, s: SpmmSource, seed: number, onProgress?: (done: number, total: number) => void): Promise<CsrMatrix[]> {
  if (s.kind === 'generated') {
    const shape = { batch: s.batch, dim: deps.parseRange(s.dim, '--dim'), seed, onProgress };
    return deps.generateBatch(s.graph !== undefined ? { ...shape, graph: s.graph } : { ...shape, nnzRow: deps.parseRange(s.nnzRow, '--nnz-row') });
  }
  const mats: CsrMatrix[] = [];
  for (const p of s.paths) mats.push(...(await deps.loadBatch(p)).matrices);
  if (mats.length === 0) throw new UserError(`--matrices: no matrices found in ${s.paths.join(', ')}`);
  return mats;
}

/** Sorts the result lines of one native run into its cases (one per n_B). */
export function groupSpmmResults(run: SpmmRunPlan, lines: RepeatedLine[], input: CaseResult['input'], extraParams: CaseResult['params'] = {}): CaseResult[] {
  const byNb = new Map<number, CaseResult>();
  for (const c of run.cases) byNb.set(c.nb, { id: c.id, op: 'spmm', label: c.label, params: { ...c.params, ...extraParams }, input, results: [] });
  for (const l of lines) {
    const nb = l.params.nb;
    const target = typeof nb === 'number' ? byNb.get(nb) : undefined;
    if (!target) throw new RuntimeFailure(`native spmm printed a result for nb=${String(nb)} (method ${l.method}), which was not requested (${run.nb.join(',')})`);
    target.results.push(toMethodResult(l));
  }
  const cases = [...byNb.values()];
  const empty = cases.find((c) => c.results.length === 0);
  if (empty) throw new RuntimeFailure(`native spmm printed no result for case ${empty.id}`);
  return cases;
}

export async function runSpmm(req: SpmmRequest, sink: BenchSink, deps?: BenchDeps): Promise<ResultFile> {
  const d = deps ?? (await realDeps());
  const runs = planSpmm(req);
  const chosen = await d.chooseBackend(req.backend, 'spmm');
  sink.log(`backend: ${chosen.backend} (${chosen.reason})`);
  checkGpuSamples(chosen.backend, req.samples);
  const probed = chosen.backend === 'cuda' ? ((await d.probeEnv?.()) ?? null) : null;
  const deviceMem = probed?.devices.find((g) => g.index === (req.device ?? 0))?.global_mem_bytes ?? null;
  for (const run of runs) checkSpmmFits(run, { total: totalmem(), free: freemem() }, deviceMem);
  // framework peers (torch) run through the Python runner; the native driver gets the rest (none: it is not built or run)
  const split = splitMethods(req.methods, chosen.backend);
  const exe = split.native ? await d.ensureExecutable(chosen.backend === 'cpu' ? 'cpu' : 'spmm-cuda', { log: (s) => sink.log(s) }) : '';
  const plugins = await prepareUserKernels(req.kernels, 'spmm', chosen.backend, d, (s) => sink.log(s));
  const progress = new ProgressTracker(countCases(runs), sink);
  let env: ResultFile['env'] = null;
  let profile: ProfileRecord | undefined;
  const cases: CaseResult[] = [];

  await withTempDir(async (dir) => {
    // runs are ordered by input, so only the current input's matrices and .spb files are kept
    let current = null as { key: string; mats: CsrMatrix[]; spb: Map<string, string> } | null;
    let files = 0;
    for (const run of runs) {
      const label = run.label;
      progress.report(label);
      if (current?.key !== run.inputKey) {
        if (current) await Promise.all([...current.spb.values()].map((f) => rm(f, { force: true })));
        // Large batches take seconds to make: progress every 1/50 of the batch.
        const step = run.source.kind === 'generated' ? Math.max(1, Math.floor(run.source.batch / 50)) : 1;
        const onProgress = (done: number, total: number): void => {
          if (total >= 10000 && (done % step === 0 || done === total)) progress.report(`${label} — making inputs: ${done}/${total} matrices`);
        };
        current = { key: run.inputKey, mats: await loadSource(d, run.source, req.seed, onProgress), spb: new Map() };
      }
      const mats = current.mats;
      const valueType = spbValueType(run.precision); // f16/bf16 read f32 values and round them natively
      let spb = current.spb.get(valueType);
      if (!spb) {
        spb = join(dir, `input-${files++}.spb`);
        await d.writeSpb(spb, mats, { valueType });
        current.spb.set(valueType, spb);
      }
      const args = [
        'spmm', '--input', spb, '--nb', run.nb.join(','), '--precision', run.precision,
        '--methods', split.native === 'all' ? 'all' : (split.native ?? []).join(','), '--mode', run.mode,
        '--warmup', String(req.warmup), ...samplingArgs(req, run.cache), '--layout', run.layout, '--seed', String(req.seed),
        ...(req.device !== undefined ? ['--device', String(req.device)] : []),
        ...(req.explain ? ['--explain'] : []),
      ];
      const out = split.native ? await invokeRepeated(d, exe, args, 'spmm', sink, progress, label, req.repeat) : { env: null, results: [] };
      if (req.profile && !profile && split.native) {
        sink.log(`profiling ${req.profile.method} once under ncu (${label})`);
        profile = await profileMethod(d, chosen.backend === 'cuda' ? findNcu() : null, exe, args, req.profile, chosen.backend);
        sink.log(profile.status === 'ok' ? `profile: ${profile.report}, summary ${profile.summary}` : `profile: ${profile.status}: ${profile.reason}`);
      }
      env ??= out.env;
      const ctx = { backend: chosen.backend, backendReason: chosen.reason, args, precision: run.precision, layout: run.layout, mode: run.mode, mats, repeat: req.repeat ?? 1 };
      const peers = await pythonResults(split.peers, ctx, d.runNative);
      const user = [...peers, ...(await spmmUserResults(plugins, ctx, out.results, d))];
      const extra: CaseResult['params'] = run.source.kind === 'files' ? { batch: mats.length } : {};
      for (const c of groupSpmmResults(run, [...out.results, ...user], describeMatrices(mats), extra)) {
        if (req.metrics?.length) {
          for (const r of c.results) {
            if (r.status !== 'ok' || r.family === 'user') continue;
            progress.report(`${label} — ncu --metrics: ${r.method} nb ${String(c.params.nb)}`);
            r.metrics = await methodMetrics(d, chosen.backend === 'cuda' ? findNcu() : null, exe, [...args, '--nb', String(c.params.nb)], r.method, req.metrics, chosen.backend, dir);
          }
        }
        cases.push(c);
        sink.caseDone(c);
      }
      progress.advance(run.cases.length, label);
    }
  });
  // only Python methods ran (no native env line): the device comes from the probe, the requested one first
  if (!env) env = deviceFirst(probed, req.device ?? 0);
  return assembleResultFile({ backend: chosen.backend, env, cases, profile });
}

/** The env line with device `index` listed first (a result file's device is the first listed). */
export function deviceFirst(env: EnvLine | null, index: number): EnvLine | null {
  if (!env) return null;
  const at = env.devices.findIndex((g) => g.index === index);
  return at <= 0 ? env : { ...env, devices: [env.devices[at], ...env.devices.filter((_, i) => i !== at)] };
}
