// Finds the compilers and CUDA libraries the native executables need: nvcc (and the CUDA root
// around it), cuSPARSE/cuBLAS headers and libraries, and g++. Pure discovery: nothing is built here.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cudaHomes, givenCompilers, pathDirs, toolchainKey } from '../config.js';

export interface Compiler {
  path: string;
  version: string; // short version, e.g. "13.0.88" or "12.2.0"
  versionText: string; // full `--version` output (part of the build hash)
}

export interface CudaLib {
  header: string | null; // path of cusparse.h / cublas_v2.h
  library: string | null; // path of libcusparse.so* / libcublas.so*
  version: string | null; // from the header's <PREFIX>_VER_MAJOR/MINOR/PATCH defines
}

export interface Toolchain {
  nvcc: Compiler | null;
  gxx: Compiler | null;
  cudaRoots: string[]; // directories searched for CUDA headers and libraries
  cusparse: CudaLib;
  cublas: CudaLib;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of pathDirs()) {
    if (isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** nvcc from $SPBENCH_NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH. */
export function findNvcc(): string | null {
  const { nvcc } = givenCompilers();
  if (nvcc) return isExecutable(nvcc) ? nvcc : null;
  for (const c of [...cudaHomes().map((h) => join(h, 'bin', 'nvcc')), '/usr/local/cuda/bin/nvcc']) {
    if (c && isExecutable(c)) return c;
  }
  return onPath('nvcc');
}

/** Nsight Compute (ncu) from $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH (spmm/spgemm --profile). */
export function findNcu(): string | null {
  for (const c of [...cudaHomes().map((h) => join(h, 'bin', 'ncu')), '/usr/local/cuda/bin/ncu']) {
    if (c && isExecutable(c)) return c;
  }
  return onPath('ncu');
}

/**
 * The folder of the running Node's node_api.h (for the Node-API addon): <prefix>/include/node of this
 * node executable, then /usr/include/node; null when neither has it.
 */
export function findNodeInclude(execPath = process.execPath): string | null {
  for (const d of [join(dirname(dirname(execPath)), 'include', 'node'), '/usr/include/node']) {
    if (existsSync(join(d, 'node_api.h'))) return d;
  }
  return null;
}

/** g++ from $SPBENCH_CXX, then PATH. */
export function findGxx(): string | null {
  const { cxx } = givenCompilers();
  if (cxx) return isExecutable(cxx) ? cxx : null;
  return onPath('g++');
}

export function runVersion(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(path, ['--version'], { timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path} --version failed: ${err.message}`));
      else resolve(`${stdout}${stderr}`.trim());
    });
  });
}

/** "release 13.0, V13.0.88" → "13.0.88"; g++'s first line "g++ (Debian 12.2.0-14) 12.2.0" → "12.2.0". */
export function shortVersion(text: string): string {
  const nv = /\bV(\d+\.\d+\.\d+)/.exec(text);
  if (nv) return nv[1];
  const first = text.split('\n')[0] ?? '';
  const m = /(\d+\.\d+(?:\.\d+)?)\s*$/.exec(first) ?? /(\d+\.\d+(?:\.\d+)?)/.exec(first);
  return m ? m[1] : first.trim();
}

async function describe(path: string | null): Promise<Compiler | null> {
  if (!path) return null;
  try {
    const versionText = await runVersion(path);
    return { path, version: shortVersion(versionText), versionText };
  } catch {
    return null;
  }
}

/** Candidate CUDA roots: $CUDA_HOME, the toolkit around nvcc (wrappers resolved), /usr/local/cuda, system dirs. */
export function cudaRoots(nvcc: string | null): string[] {
  const roots: string[] = [];
  const add = (p: string | undefined | null) => {
    if (p && existsSync(p) && !roots.includes(p)) roots.push(p);
  };
  for (const h of cudaHomes()) add(h);
  if (nvcc) {
    try {
      add(dirname(dirname(realpathSync(nvcc))));
    } catch {
      /* unreadable path: skip */
    }
  }
  add('/usr/local/cuda');
  add('/usr'); // distribution packages: /usr/include, /usr/lib/x86_64-linux-gnu
  return roots;
}

const ARCH_DIRS = ['x86_64-linux', 'sbsa-linux', 'aarch64-linux'];

function includeDirs(root: string): string[] {
  return [join(root, 'include'), ...ARCH_DIRS.map((a) => join(root, 'targets', a, 'include'))];
}

function libDirs(root: string): string[] {
  return [join(root, 'lib64'), join(root, 'lib'), join(root, 'lib', 'x86_64-linux-gnu'), join(root, 'lib', 'aarch64-linux-gnu'), ...ARCH_DIRS.map((a) => join(root, 'targets', a, 'lib'))];
}

/** "12.6.3" from `#define CUSPARSE_VER_MAJOR 12` ... in the given headers, or null. */
export function headerVersion(headers: string[], prefix: string): string | null {
  for (const h of headers) {
    let text: string;
    try {
      text = readFileSync(h, 'utf8');
    } catch {
      continue;
    }
    const part = (k: string) => new RegExp(`#define\\s+${prefix}_VER_${k}\\s+(\\d+)`).exec(text)?.[1];
    const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')];
    if (major && minor) return patch ? `${major}.${minor}.${patch}` : `${major}.${minor}`;
  }
  return null;
}

function findLib(roots: string[], header: string, lib: string, versionHeaders: string[], prefix: string): CudaLib {
  let h: string | null = null;
  let l: string | null = null;
  for (const root of roots) {
    for (const d of includeDirs(root)) if (!h && existsSync(join(d, header))) h = join(d, header);
    for (const d of libDirs(root)) {
      if (l || !existsSync(d)) continue;
      const hit = readdirSync(d).find((f) => f === `${lib}.so` || f.startsWith(`${lib}.so.`) || f === `${lib}_static.a`);
      if (hit) l = join(d, hit);
    }
  }
  const version = h ? headerVersion(versionHeaders.map((f) => join(dirname(h), f)), prefix) : null;
  return { header: h, library: l, version };
}

// Discovery runs each compiler's --version; remember it per environment so repeated builds stay cheap.
const memo = new Map<string, Promise<Toolchain>>();

export function discoverToolchain(): Promise<Toolchain> {
  const key = toolchainKey();
  let p = memo.get(key);
  if (!p) {
    p = discover();
    memo.set(key, p);
  }
  return p;
}

async function discover(): Promise<Toolchain> {
  const nvccPath = findNvcc();
  const [nvcc, gxx] = await Promise.all([describe(nvccPath), describe(findGxx())]);
  const roots = cudaRoots(nvccPath);
  return {
    nvcc,
    gxx,
    cudaRoots: roots,
    cusparse: findLib(roots, 'cusparse.h', 'libcusparse', ['cusparse.h'], 'CUSPARSE'),
    cublas: findLib(roots, 'cublas_v2.h', 'libcublas', ['cublas_api.h', 'cublas_v2.h'], 'CUBLAS'),
  };
}

export function libFound(l: CudaLib): boolean {
  return l.header !== null && l.library !== null;
}

