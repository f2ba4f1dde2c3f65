// Carries out an SpgemmRequest: one native run per (input, precision), C = A·A or A·B.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from '../config.js';
import type { CsrMatrix } from '../matrix/types.js';
import { RuntimeFailure, UserError } from '../util/errors.js';
import { samplingArgs, type SpgemmRequest, type VerifyMode } from './api.js';
import { realDeps, type BenchDeps } from './deps.js';
import { assembleResultFile } from './env.js';
import type { BenchSink } from './api.js';
import { describeMatrices, ProgressTracker, withTempDir } from './native-run.js';
import { invokeRepeated } from './repeat.js';
import type { CaseResult, ResultFile } from '../results/schema.js';
import { planSpgemm, sourceKey, type SpgemmCasePlan, type SpgemmSource } from './spgemm-plan.js';
import { toMethodResult } from './figures.js';
import { methodMetrics, profileMethod, type ProfileRecord } from './profile.js';
import { findNcu } from '../native/toolchain.js';
import { prepareUserKernels, spgemmUserResults } from '../plugins/bench.js';

async function loadOperand(d: BenchDeps, s: SpgemmSource, seed: number): Promise<CsrMatrix> {
  return s.kind === 'file' ? d.loadMatrix(s.path) : d.generateMatrix(s.spec, seed);
}

/** `bOption` names the option that gave B (--b or --gen-b); undefined means C = A·A. */
export function checkShapes(aName: string, a: CsrMatrix, bName: string | undefined, b: CsrMatrix, bOption = '--b'): void {
  if (bName === undefined && a.rows !== a.cols) {
    throw new UserError(`${aName}: A·A needs a square matrix, but it is ${a.rows}×${a.cols} (give the second operand with --b or --gen-b)`);
  }
  if (a.cols !== b.rows) {
    throw new UserError(`${bOption}: ${aName} is ${a.rows}×${a.cols} and ${bName} is ${b.rows}×${b.cols}; A·B needs A's columns (${a.cols}) to equal B's rows (${b.rows})`);
  }
}

function describeSource(s: SpgemmSource): string {
  return s.kind === 'file' ? s.path : `gen ${s.spec}`;
}

function spgemmInput(a: CsrMatrix, b: CsrMatrix, plan: SpgemmCasePlan): CaseResult['input'] {
  const da = describeMatrices([a]);
  const input: CaseResult['input'] = {
    source: describeSource(plan.source),
    a_rows: a.rows, a_cols: a.cols, a_nnz: da.nnz,
  };
  if (plan.b) {
    input.b_source = describeSource(plan.b);
    input.b_rows = b.rows;
    input.b_cols = b.cols;
    input.b_nnz = describeMatrices([b]).nnz;
  }
  return input;
}

/** The native reference options of a --verify mode; references are kept in `cache` (by the operands' content and the rows drawn). */
export function referenceArgs(verify: VerifyMode, seed: number, cache: string | null): string[] {
  if (verify === 'none') return ['--reference', 'none'];
  const kept = cache ? ['--reference-cache', cache] : [];
  if (verify === 'full') return ['--reference', 'cpu', ...kept];
  return ['--reference', verify, '--verify-seed', String(seed), ...kept];
}

/** The folder of cached SpGEMM references, made on first use; null (no cache) where it cannot be made. */
async function referenceCache(): Promise<string | null> {
  const dir = join(cacheDir(), 'references');
  try {
    await mkdir(dir, { recursive: true });
    return dir;
  } catch {
    return null;
  }
}

export async function runSpgemm(req: SpgemmRequest, sink: BenchSink, deps?: BenchDeps): Promise<ResultFile> {
  const d = deps ?? (await realDeps());
  const plans = planSpgemm(req);
  if (plans.length === 0) throw new UserError('spgemm: give at least one matrix file or --gen SPEC');
  const chosen = await d.chooseBackend(req.backend, 'spgemm');
  sink.log(`backend: ${chosen.backend} (${chosen.reason})`);
  const exe = await d.ensureExecutable(chosen.backend === 'cpu' ? 'cpu' : 'spgemm-cuda', { log: (s) => sink.log(s) });
  const plugins = await prepareUserKernels(req.kernels, 'spgemm', chosen.backend, d, (s) => sink.log(s));
  const progress = new ProgressTracker(plans.length, sink);
  let env: ResultFile['env'] = null;
  let profile: ProfileRecord | undefined;
  const cases: CaseResult[] = [];
  const bPlan = plans[0];
  const bMatrix = bPlan.b ? await loadOperand(d, bPlan.b, req.seed) : null;
  const bOption = bPlan.b?.kind === 'gen' ? '--gen-b' : '--b';
  const refCache = req.verify === 'none' ? null : await referenceCache();

  await withTempDir(async (dir) => {
    let current = null as { key: string; a: CsrMatrix } | null; // plans are ordered by source
    let n = 0;
    for (const plan of plans) {
      progress.report(plan.label);
      const key = sourceKey(plan.source);
      if (current?.key !== key) current = { key, a: await loadOperand(d, plan.source, req.seed) };
      const a = current.a;
      const b = bMatrix ?? a;
      checkShapes(plan.aName, a, plan.bName, b, bOption);
      const aPath = join(dir, `a-${n}.spb`);
      await d.writeSpb(aPath, [a], { valueType: plan.precision });
      const args = ['spgemm', '--a', aPath];
      if (bMatrix) {
        const bPath = join(dir, `b-${n}.spb`);
        await d.writeSpb(bPath, [bMatrix], { valueType: plan.precision });
        args.push('--b', bPath);
      }
      n++;
      args.push('--precision', plan.precision, '--methods', req.methods === 'all' ? 'all' : req.methods.join(','),
        '--warmup', String(req.warmup), ...samplingArgs(req, plan.cache));
      if (req.breakdown) args.push('--breakdown');
      args.push(...referenceArgs(req.verify, req.seed, refCache));
      if (req.explain) args.push('--explain');
      if (req.device !== undefined) args.push('--device', String(req.device));
      if (req.threads !== undefined) args.push('--threads', String(req.threads));
      const out = await invokeRepeated(d, exe, args, 'spgemm', sink, progress, plan.label, req.repeat);
      if (req.profile && !profile) {
        sink.log(`profiling ${req.profile.method} once under ncu (${plan.label})`);
        profile = await profileMethod(d, chosen.backend === 'cuda' ? findNcu() : null, exe, args, req.profile, chosen.backend);
        sink.log(profile.status === 'ok' ? `profile: ${profile.report}, summary ${profile.summary}` : `profile: ${profile.status}: ${profile.reason}`);
      }
      env ??= out.env;
      if (out.results.length === 0) throw new RuntimeFailure(`native spgemm printed no result for case ${plan.id}`);
      const user = await spgemmUserResults(plugins, { backend: chosen.backend, backendReason: chosen.reason, args, precision: plan.precision, repeat: req.repeat ?? 1 }, out.results, d);
      const c: CaseResult = { id: plan.id, op: 'spgemm', label: plan.label, params: plan.params, input: spgemmInput(a, b, plan), results: [...out.results, ...user].map(toMethodResult) };
      for (const r of req.metrics?.length ? c.results : []) {
        if (r.status !== 'ok' || r.family === 'user') continue;
        progress.report(`${plan.label} — ncu --metrics: ${r.method}`);
        r.metrics = await methodMetrics(d, chosen.backend === 'cuda' ? findNcu() : null, exe, args, r.method, req.metrics!, chosen.backend, dir);
      }
      cases.push(c);
      sink.caseDone(c);
      progress.advance(1, plan.label);
    }
  });
  return assembleResultFile({ backend: chosen.backend, env, cases, profile });
}
