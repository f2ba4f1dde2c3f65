// Builds native executables on first use and caches them under the user cache directory:
//   <cache>/bin/<exe>-<hash16>, hash = sha256(target, compiler --version, flags, every hashed source).
// A changed source, flag or compiler gives a new hash, hence a rebuild; old binaries stay harmlessly.
// A lock file per (target, hash) makes concurrent spbench processes build once; the compiler writes a
// temporary name that is renamed into place, so a half-written executable is never visible.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { EnvironmentError } from '../util/errors.js';
import { Tail, withTail } from './tail.js';
import { archFlag, cudaSourceDir, targetSpec, type TargetName, type TargetSpec } from './targets.js';
import { cacheDir } from '../config.js';
import { discoverToolchain, findNodeInclude, libFound, type Compiler, type Toolchain } from './toolchain.js';
import { cudaArch, extraFlags } from '../config.js';

export interface EnsureOptions {
  rebuild?: boolean;
  log?: (s: string) => void;
  cudaDir?: string; // default: cuda/ of this package or $SPBENCH_CUDA_DIR
  cacheDir?: string; // default: cacheDir()
  extraFlags?: string[]; // appended to the target's flags (also from $SPBENCH_EXTRA_FLAGS)
  arch?: string; // compute capability for GPU targets ("9.0"); default $SPBENCH_CUDA_ARCH, else probeArch()
  /** finds the GPU's compute capability when neither arch nor $SPBENCH_CUDA_ARCH gives it (executables.ts probes GPU 0) */
  probeArch?: () => Promise<string>;
}

const LOCK_STALE_MS = 30 * 60_000; // no build takes this long: the holder is gone
const LOCK_WAIT_MS = 40 * 60_000;

/** Every file under the hashed folders, sorted, as paths relative to cudaDir. */
export function hashedFiles(spec: TargetSpec, cudaDir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else out.push(relative(cudaDir, p));
  };
  for (const h of spec.hashed) walk(join(cudaDir, h));
  return [...new Set(out)].sort();
}

export function buildHash(spec: TargetSpec, cudaDir: string, compilerVersion: string, flags: string[]): string {
  const h = createHash('sha256');
  const field = (s: string | Buffer) => {
    h.update(String(s.length));
    h.update(':');
    h.update(s);
  };
  field(spec.name);
  field(compilerVersion);
  field(JSON.stringify(flags));
  for (const f of hashedFiles(spec, cudaDir)) {
    field(f);
    field(readFileSync(join(cudaDir, f)));
  }
  return h.digest('hex').slice(0, 16);
}

function compilerFor(spec: TargetSpec, tc: Toolchain): Compiler {
  if (spec.compiler === 'g++') {
    if (!tc.gxx) throw new EnvironmentError('g++ was not found, so the CPU backend cannot be built: install it (Debian/Ubuntu: apt-get install g++) or point SPBENCH_CXX at a C++17 compiler.');
    return tc.gxx;
  }
  if (!tc.nvcc) {
    throw new EnvironmentError(
      `nvcc (the CUDA compiler) was not found, so ${spec.exe} cannot be built: install the CUDA toolkit, or point SPBENCH_NVCC or CUDA_HOME at it; without CUDA, use --backend cpu.`,
    );
  }
  for (const lib of spec.needsLibs) {
    if (!libFound(tc[lib])) {
      const what = lib === 'cusparse' ? 'cuSPARSE (cusparse.h, libcusparse)' : 'cuBLAS (cublas_v2.h, libcublas)';
      const missing = [tc[lib].header ? null : 'header', tc[lib].library ? null : 'library'].filter(Boolean).join(' and ');
      throw new EnvironmentError(
        `${what} ${missing} not found (searched ${tc.cudaRoots.join(', ')}), so ${spec.exe} cannot be built: install the CUDA toolkit's ${lib} development files (e.g. the ${lib === 'cusparse' ? 'libcusparse' : 'libcublas'}-dev package matching nvcc ${tc.nvcc.version}), or use --backend cpu.`,
      );
    }
  }
  return tc.nvcc;
}

/** Include/library folders of the CUDA libraries a target links (they may live outside nvcc's root). */
function libSearchFlags(spec: TargetSpec, tc: Toolchain): string[] {
  const flags: string[] = [];
  for (const lib of spec.needsLibs) {
    const { header, library } = tc[lib];
    if (header) flags.push(`-I${join(header, '..')}`);
    if (library) flags.push(`-L${join(library, '..')}`);
  }
  return [...new Set(flags)];
}

/** -I of node_api.h for a Node-API addon (none for other targets). */
function nodeApiFlags(spec: TargetSpec): string[] {
  if (!spec.nodeApi) return [];
  const dir = findNodeInclude();
  if (!dir) throw new EnvironmentError(`Node's headers (node_api.h) were not found next to ${process.execPath} or in /usr/include/node, so ${spec.exe} cannot be built (Matrix Market files are then parsed by spbench-cpu or in TypeScript).`);
  return [`-I${dir}`];
}

async function gpuArch(opts: EnsureOptions): Promise<string> {
  const given = opts.arch ?? cudaArch();
  if (given) return /^\d+$/.test(given) ? `${given.slice(0, -1)}.${given.slice(-1)}` : given;
  if (opts.probeArch) return opts.probeArch();
  throw new EnvironmentError('the GPU architecture is not known, so GPU executables cannot be built: set SPBENCH_CUDA_ARCH (e.g. 90), or use --backend cpu.');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock is stale when its holder (on this host) is dead, or it is older than any build takes. */
function lockIsStale(lockPath: string): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return false; // gone already: the next create attempt decides
  }
  if (age > LOCK_STALE_MS) return true;
  try {
    const info = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number; host: string };
    return info.host === hostname() && !pidAlive(info.pid);
  } catch {
    return age > 10_000; // unreadable for long: its writer died mid-write
  }
}

/**
 * Runs fn while holding an exclusive lock file (created with O_EXCL, holding our pid, host and a
 * random token). A stale lock is moved aside by rename (atomic), re-checked, and put back with
 * link (fails if a newer lock exists) should it turn out to belong to a live holder after all; on
 * release we remove the lock only if it still carries our token.
 */
export async function withLock<T>(lockPath: string, fn: () => Promise<T>, log?: (s: string) => void): Promise<T> {
  const start = Date.now();
  const token = randomBytes(8).toString('hex');
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), time: new Date().toISOString(), token }));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (lockIsStale(lockPath)) {
      log?.(`removing stale build lock ${lockPath}`);
      const aside = `${lockPath}.stale-${process.pid}-${token}`;
      try {
        renameSync(lockPath, aside);
      } catch {
        continue; // someone else moved it first
      }
      if (!lockIsStale(aside)) {
        try {
          linkSync(aside, lockPath); // a live holder's lock after all: restore it
        } catch {
          /* a newer lock exists; that one governs */
        }
      }
      unlinkSync(aside);
      continue;
    }
    if (Date.now() - start > LOCK_WAIT_MS) throw new EnvironmentError(`timed out waiting for the build lock ${lockPath}; if no spbench is building, delete it.`);
    if (!told) log?.(`waiting for another spbench process to finish building (lock ${lockPath})`);
    told = true;
    await sleep(100);
  }
  try {
    return await fn();
  } finally {
    try {
      if ((JSON.parse(readFileSync(lockPath, 'utf8')) as { token?: string }).token === token) unlinkSync(lockPath);
    } catch {
      /* already gone */
    }
  }
}

export function compile(compiler: string, args: string[], cwd: string): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve) => {
    const out = new Tail();
    const child = spawn(compiler, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8').on('data', (d: string) => out.push(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => out.push(d));
    child.on('error', (e) => out.push(`cannot run ${compiler}: ${e.message}\n`));
    child.on('close', (code, signal) => resolve({ code, signal, output: out.toString() }));
  });
}

/** What ensureExecutable would build: compiler, flags, hash and final path (nothing is built). */
export interface BuildPlan {
  spec: TargetSpec;
  compiler: Compiler;
  flags: string[];
  hash: string;
  exePath: string;
  cudaDir: string;
}

export async function planBuild(target: TargetName, opts: EnsureOptions = {}, tc?: Toolchain): Promise<BuildPlan> {
  const spec = targetSpec(target);
  const cudaDir = opts.cudaDir ?? cudaSourceDir();
  if (!existsSync(join(cudaDir, spec.main))) {
    throw new EnvironmentError(`the source of ${spec.exe} (${join(cudaDir, spec.main)}) is missing, so it cannot be built${spec.compiler === 'nvcc' ? '; use --backend cpu' : ''}.`);
  }
  const toolchain = tc ?? (await discoverToolchain());
  const compiler = compilerFor(spec, toolchain);
  const extra = opts.extraFlags ?? extraFlags();
  const arch = spec.needsArch ? [archFlag(await gpuArch(opts))] : [];
  const flags = [...spec.flags, ...arch, ...libSearchFlags(spec, toolchain), ...nodeApiFlags(spec), ...extra];
  const hash = buildHash(spec, cudaDir, compiler.versionText, [...flags, ...spec.libs]);
  const exePath = join(opts.cacheDir ?? cacheDir(), 'bin', `${spec.exe}-${hash}`);
  return { spec, compiler, flags, hash, exePath, cudaDir };
}

/**
 * Path of the cached executable for `target`, building it first when missing or when `rebuild`.
 * GPU targets need the architecture (opts.arch, $SPBENCH_CUDA_ARCH or opts.probeArch); the
 * package's ensureExecutable (executables.ts) probes the GPU for it.
 */
export async function buildExecutable(target: TargetName, opts: EnsureOptions = {}): Promise<string> {
  const plan = await planBuild(target, opts);
  const { spec, compiler, exePath } = plan;
  if (!opts.rebuild && existsSync(exePath)) return exePath;
  const binDir = join(exePath, '..');
  try {
    mkdirSync(binDir, { recursive: true });
    accessSync(binDir, constants.W_OK);
  } catch (e) {
    throw new EnvironmentError(`cannot write the build cache ${binDir}: ${(e as Error).message}. Set SPBENCH_CACHE_DIR to a writable directory.`);
  }
  return withLock(
    `${exePath}.lock`,
    async () => {
      if (!opts.rebuild && existsSync(exePath)) return exePath; // built by whoever held the lock
      const tmp = `${exePath}.tmp-${process.pid}-${Date.now()}`;
      const args = [...plan.flags, join(plan.cudaDir, spec.main), '-o', tmp, ...spec.libs];
      opts.log?.(`building ${spec.exe} with ${spec.compiler} ${compiler.version} → ${exePath}`);
      const t0 = Date.now();
      const r = await compile(compiler.path, args, plan.cudaDir);
      if (r.code !== 0 || !existsSync(tmp)) {
        try {
          unlinkSync(tmp);
        } catch {
          /* never created */
        }
        const how = r.signal ? `was killed by signal ${r.signal}` : `exited with status ${r.code}`;
        throw new EnvironmentError(
          withTail(
            `compiling ${spec.exe} failed: ${compiler.path} ${how}. Command: ${compiler.path} ${args.join(' ')}. ` +
              `If you changed cuda/, fix the error below; otherwise check the compiler install or report it (spbench doctor shows the toolchain).`,
            r.output,
            'compiler output',
          ),
        );
      }
      renameSync(tmp, exePath);
      opts.log?.(`built ${spec.exe} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return exePath;
    },
    opts.log,
  );
}
