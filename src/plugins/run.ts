// Runs user kernels (plugins) beside the built-in methods of a case: each plugin in its own process
// (its runner executable, src/plugins/build.ts), on the same .spb input and seed, so a plugin that
// crashes or hangs loses only its own results. Whatever the process does not report (it crashed,
// was stopped after the timeout, or never ran because the plugin does not apply) becomes a result
// line of family "user" with status error / not_applicable and the reason.
import { kernelTimeoutMs } from '../config.js';
import type { NativeLine, ResultLine } from '../native/protocol.js';
import { runNative } from '../native/runner.js';
import { mergeRuns, type RepeatedLine } from '../bench/repeat.js';
import { UserError } from '../util/errors.js';
import { isPythonPlugin, readManifest, pluginMethods, type PluginManifest } from './manifest.js';

export interface PreparedPlugin {
  file: string;
  manifest: PluginManifest;
  exe: string | null; // null where it cannot run (CPU backend) or needs no build (a .py plugin: cuda/python/pyrun.py runs it)
}

export type RunNativeFn = (exe: string, args: string[], opts: { onLine?: (l: NativeLine) => void; timeoutMs?: number }) => Promise<NativeLine[]>;
export type BuildPluginFn = (file: string, manifest: PluginManifest, log: (s: string) => void) => Promise<string>;

/**
 * Reads every plugin's manifest (a UserError naming the file when one is bad, is for the other
 * operation, or repeats a method name) and, on the CUDA backend, builds it.
 */
export async function preparePlugins(files: string[] | undefined, op: 'spmm' | 'spgemm', backend: 'cpu' | 'cuda', build: BuildPluginFn, log: (s: string) => void): Promise<PreparedPlugin[]> {
  if (!files?.length) return [];
  const seen = new Map<string, string>();
  const manifests = files.map((file) => {
    const manifest = readManifest(file);
    if (manifest.op !== op) throw new UserError(`--kernel ${file}: the plugin is an ${manifest.op} plugin ("op": "${manifest.op}"), but this is an ${op} run`);
    for (const m of pluginMethods(manifest)) {
      const other = seen.get(m);
      if (other) throw new UserError(`--kernel ${file}: method name '${m}' is already used by ${other === file ? 'the same file given twice' : other}; give each plugin its own "name"`);
      seen.set(m, file);
    }
    return { file, manifest };
  });
  const out: PreparedPlugin[] = [];
  for (const p of manifests) out.push({ ...p, exe: backend === 'cuda' && !isPythonPlugin(p.file) ? await build(p.file, p.manifest, log) : null });
  return out;
}

/**
 * A result line for a method that did not report itself, shaped like the case's other lines (`template`);
 * family user (a plugin: info names its file) or peer (a framework peer of the Python runner).
 */
export function userLine(template: ResultLine, method: string, file: string, status: 'error' | 'not_applicable', reason: string, family: 'user' | 'peer' = 'user'): ResultLine {
  return {
    type: 'result',
    op: template.op,
    method,
    family,
    params: template.params,
    status,
    reason,
    timed_region: template.timed_region,
    samples_ms: [],
    flops: template.flops,
    bytes_moved: template.bytes_moved,
    peak_mem_bytes: 0,
    verify: { checked: false, passed: false, max_rel_err: null, tol: template.verify.tol, reference: template.verify.reference },
    info: family === 'user' ? { plugin: file } : { runner: file },
  };
}

export interface Expected {
  method: string;
  template: ResultLine; // a built-in line of the same case (same nb)
  family?: 'user' | 'peer'; // default user
}

const key = (method: string, nb: unknown) => `${method}\u0000${String(nb ?? '')}`;

function sanitizerHint(exe: string, args: string[]): string {
  return `run it under compute-sanitizer to find the faulting access: compute-sanitizer ${exe} ${args.join(' ')} (the .spb input was temporary: write it again with spbench gen or convert and pass that file)`;
}

/** The first line of an error message (runNative appends the child's stderr after it). */
function headline(msg: string): string {
  return msg.split('\n')[0];
}

/**
 * One plugin process: its result lines, plus an error line for every expected (method, nb) it did
 * not report. A CUDA error in a reported line gets compute-sanitizer's hint; a crash or a timeout
 * names what happened and the last stderr line.
 */
export async function runPluginProcess(exe: string, args: string[], file: string, expected: Expected[], opts: { run?: RunNativeFn; timeoutMs?: number } = {}): Promise<ResultLine[]> {
  const run = opts.run ?? runNative;
  const timeoutMs = opts.timeoutMs ?? kernelTimeoutMs();
  const got: ResultLine[] = [];
  const wanted = new Set(expected.map((e) => key(e.method, e.template.params.nb)));
  const families = new Set(expected.map((e) => e.family ?? 'user'));
  let failure: string | null = null;
  try {
    await run(exe, args, {
      timeoutMs,
      onLine: (l) => {
        if (l.type === 'result' && families.has(l.family as 'user' | 'peer') && wanted.has(key(l.method, l.params.nb))) got.push(l);
      },
    });
  } catch (e) {
    const msg = (e as Error).message;
    const lastStderr = msg.split('\n').slice(1).map((s) => s.trim()).filter((s) => s && !s.startsWith('---')).pop();
    failure = `${families.has('peer') ? 'the Python runner\'s' : 'the plugin\'s'} process ended before reporting this case: ${headline(msg)}${lastStderr ? ` (last stderr line: ${lastStderr})` : ''}`;
    if (!/did not finish within/.test(msg)) failure += `; ${sanitizerHint(exe, args)}`;
    else failure += ' (SPBENCH_KERNEL_TIMEOUT sets the limit in seconds)';
  }
  const lines = got.map((l) =>
    l.status === 'error' && /CUDA|cuda/.test(l.reason ?? '') && !/compute-sanitizer/.test(l.reason ?? '') ? { ...l, reason: `${l.reason}; ${sanitizerHint(exe, args)}` } : l,
  );
  const have = new Set(lines.map((l) => key(l.method, l.params.nb)));
  for (const e of expected) {
    if (have.has(key(e.method, e.template.params.nb))) continue;
    lines.push(userLine(e.template, e.method, file, 'error', failure ?? `${families.has('peer') ? 'the Python runner\'s' : 'the plugin\'s'} process finished without reporting this case`, e.family));
  }
  return lines;
}

/** runPluginProcess `repeat` times (separate processes) and merges the runs as the built-in ones are. */
export async function runPluginRepeated(exe: string, args: string[], file: string, expected: Expected[], repeat: number, opts: { run?: RunNativeFn; timeoutMs?: number } = {}): Promise<RepeatedLine[]> {
  const runs: ResultLine[][] = [];
  for (let i = 0; i < Math.max(1, repeat); i++) {
    const lines = await runPluginProcess(exe, args, file, expected, opts);
    // the same order in every run, so mergeRuns lines them up
    runs.push(expected.map((e) => lines.find((l) => l.method === e.method && l.params.nb === e.template.params.nb)!));
  }
  return mergeRuns(runs);
}
