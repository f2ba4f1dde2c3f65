// Builds a user kernel (plugin) with its runner driver (cuda/drivers/plugin_<op>.cu) by nvcc for the GPU
// found, cached like the built-in executables (src/native/build.ts: same cache folder, lock and
// temporary-name rename): <cache>/bin/spbench-plugin-<op>-<name>-<hash16>, hash = sha256 over the
// compiler's version, the flags, the plugin's source (and the headers beside it), the public header,
// the runner driver and the shared native headers it includes. A compile error in the plugin is the
// user's to fix: a UserError (exit 2) quoting nvcc's message with the plugin's file and line.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { cacheDir, cudaArch, extraFlags } from '../config.js';
import { compile, withLock } from '../native/build.js';
import { archFlag, cudaSourceDir } from '../native/targets.js';
import { discoverToolchain, type Toolchain } from '../native/toolchain.js';
import { EnvironmentError, UserError } from '../util/errors.js';
import type { PluginManifest } from './manifest.js';

export interface PluginBuildOptions {
  cudaDir?: string;
  cacheDir?: string;
  arch?: string; // compute capability ("9.0" or "90"); default $SPBENCH_CUDA_ARCH, else probeArch()
  probeArch?: () => Promise<string>;
  extraFlags?: string[];
  toolchain?: Toolchain;
  rebuild?: boolean;
  log?: (s: string) => void;
}

export interface PluginBuildPlan {
  file: string; // as the user gave it
  source: string; // absolute
  driver: string; // absolute
  nvcc: string;
  flags: string[];
  hash: string;
  exePath: string;
  cudaDir: string;
}

/** Folders/files under cuda/ that a runner driver may include: they enter the hash. */
const RUNNER_INPUTS = ['include', 'common'];
const HEADER = /\.(h|hh|hpp|cuh|inl)$/;

function filesUnder(root: string, rel: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else out.push(relative(root, p));
  };
  walk(join(root, rel));
  return out;
}

/** Every input of a plugin build, as [label, absolute path], in a stable order. */
export function pluginHashInputs(source: string, op: 'spmm' | 'spgemm', cudaDir: string): Array<[string, string]> {
  const runner = [...new Set([`drivers/plugin_${op}.cu`, ...RUNNER_INPUTS.flatMap((r) => filesUnder(cudaDir, r))])].sort();
  const dir = dirname(source);
  const beside = readdirSync(dir).filter((f) => HEADER.test(f)).sort();
  return [
    ['plugin', source],
    ...beside.map((f): [string, string] => [`plugin-dir/${f}`, join(dir, f)]),
    ...runner.map((f): [string, string] => [`cuda/${f}`, join(cudaDir, f)]),
  ];
}

export function pluginHash(inputs: Array<[string, string]>, compilerVersion: string, flags: string[]): string {
  const h = createHash('sha256');
  const field = (s: string | Buffer) => {
    h.update(String(s.length));
    h.update(':');
    h.update(s);
  };
  field('plugin');
  field(compilerVersion);
  field(JSON.stringify(flags));
  for (const [label, p] of inputs) {
    field(label);
    field(existsSync(p) ? readFileSync(p) : '(missing)');
  }
  return h.digest('hex').slice(0, 16);
}

async function archOf(o: PluginBuildOptions): Promise<string> {
  const given = o.arch ?? cudaArch();
  if (given) return /^\d+$/.test(given) ? `${given.slice(0, -1)}.${given.slice(-1)}` : given;
  if (o.probeArch) return o.probeArch();
  throw new EnvironmentError('the GPU architecture is not known, so the plugin cannot be built: set SPBENCH_CUDA_ARCH (e.g. 90).');
}

export async function planPluginBuild(file: string, manifest: PluginManifest, o: PluginBuildOptions = {}): Promise<PluginBuildPlan> {
  const cudaDir = o.cudaDir ?? cudaSourceDir();
  const source = resolve(file);
  const driver = join(cudaDir, 'drivers', `plugin_${manifest.op}.cu`);
  if (!existsSync(driver)) throw new EnvironmentError(`the plugin runner ${driver} is missing, so --kernel ${file} cannot be built.`);
  const tc = o.toolchain ?? (await discoverToolchain());
  if (!tc.nvcc) throw new EnvironmentError(`nvcc (the CUDA compiler) was not found, so --kernel ${file} cannot be built: install the CUDA toolkit, or point SPBENCH_NVCC or CUDA_HOME at it.`);
  const flags = ['-std=c++17', '-O3', '-lineinfo', archFlag(await archOf(o)), ...(o.extraFlags ?? extraFlags())];
  const hash = pluginHash(pluginHashInputs(source, manifest.op, cudaDir), tc.nvcc.versionText, flags);
  const exePath = join(o.cacheDir ?? cacheDir(), 'bin', `spbench-plugin-${manifest.op}-${manifest.name}-${hash}`);
  return { file, source, driver, nvcc: tc.nvcc.path, flags, hash, exePath, cudaDir };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * nvcc's output with the plugin's absolute path replaced by the path the user gave and nvcc's
 * `file(12): error` turned into `file:12: error`, the form editors and terminals link.
 */
export function plainCompilerOutput(output: string, source: string, given: string): string {
  return output.replace(new RegExp(`${escapeRe(source)}\\((\\d+)\\)`, 'g'), `${given}:$1`).replace(new RegExp(escapeRe(source), 'g'), given);
}

/** The first error line that names the plugin, if any. */
function firstPluginError(output: string, given: string): string | undefined {
  return output.split('\n').find((l) => l.includes(`${given}:`) && /error/i.test(l));
}

/** Path of the plugin's cached runner executable, building it first when missing (or when `rebuild`). */
export async function buildPlugin(file: string, manifest: PluginManifest, o: PluginBuildOptions = {}): Promise<string> {
  const plan = await planPluginBuild(file, manifest, o);
  if (!o.rebuild && existsSync(plan.exePath)) return plan.exePath;
  const binDir = dirname(plan.exePath);
  try {
    mkdirSync(binDir, { recursive: true });
  } catch (e) {
    throw new EnvironmentError(`cannot write the build cache ${binDir}: ${(e as Error).message}. Set SPBENCH_CACHE_DIR to a writable directory.`);
  }
  return withLock(`${plan.exePath}.lock`, async () => {
    if (!o.rebuild && existsSync(plan.exePath)) return plan.exePath;
    const tmp = `${plan.exePath}.tmp-${process.pid}-${Date.now()}`;
    const args = [...plan.flags, `-I${join(plan.cudaDir, 'include')}`, plan.driver, plan.source, '-ldl', '-o', tmp]; // -ldl: NVML through dlopen
    o.log?.(`building plugin ${manifest.name} (${file}) with nvcc → ${plan.exePath}`);
    const t0 = Date.now();
    const r = await compile(plan.nvcc, args, dirname(plan.source));
    if (r.code !== 0 || !existsSync(tmp)) {
      try {
        unlinkSync(tmp);
      } catch {
        /* never created */
      }
      const text = plainCompilerOutput(r.output, plan.source, file).trimEnd();
      const first = firstPluginError(text, file);
      if (first || text.includes(file)) {
        throw new UserError(`--kernel ${file}: nvcc could not compile the plugin${first ? `: ${first.trim()}` : ''}\n--- nvcc output ---\n${text}`);
      }
      const how = r.signal ? `was killed by signal ${r.signal}` : `exited with status ${r.code}`;
      throw new EnvironmentError(`building the runner for --kernel ${file} failed: nvcc ${how}. Command: ${plan.nvcc} ${args.join(' ')}\n--- nvcc output ---\n${text}`);
    }
    renameSync(tmp, plan.exePath);
    o.log?.(`built plugin ${manifest.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return plan.exePath;
  }, o.log);
}


