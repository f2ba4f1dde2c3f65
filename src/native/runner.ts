// Runs a native executable and turns its stdout into validated protocol lines. Anything unexpected
// (cannot start, bad JSON, schema violation, crash, signal, non-zero exit, missing env/done line)
// becomes a RuntimeFailure whose message names the problem and quotes the child's stderr tail.
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { EnvironmentError, RuntimeFailure, UserError } from '../util/errors.js';
import { parseNativeLine, type NativeLine } from './protocol.js';
import { Tail, withTail } from './tail.js';

export { STDERR_TAIL_BYTES } from './tail.js';
const KILL_GRACE_MS = 2000;

export interface RunNativeOptions {
  onLine?: (l: NativeLine) => void;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number; // stop the child (SIGKILL) and fail when it runs longer
}

/** Meaning of the protocol's exit codes (docs/native-protocol.md). */
const EXIT_MEANING: Record<number, string> = {
  2: 'bad arguments or unreadable input',
  3: 'CUDA or runtime failure',
  4: 'no usable GPU',
};

export function runNative(exePath: string, args: string[], opts: RunNativeOptions = {}): Promise<NativeLine[]> {
  const name = basename(exePath);
  const cmd = `${name} ${args.join(' ')}`.trim();
  return new Promise((resolvePromise, reject) => {
    const lines: NativeLine[] = [];
    const stderr = new Tail();
    let protocolError: string | null = null;
    let lineNo = 0;
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn(exePath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => stderr.push(d));
    const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
    rl.on('line', (text) => {
      lineNo++;
      if (protocolError || text.trim() === '') return;
      try {
        const line = parseNativeLine(text, lineNo);
        if (lines.length === 0 && line.type !== 'env') throw new Error(`native output line ${lineNo} is a '${line.type}' line, but the first line must be 'env'`);
        lines.push(line);
        opts.onLine?.(line);
      } catch (e) {
        protocolError = (e as Error).message;
        // Its further output is meaningless, but give it a moment to finish writing stderr (the diagnosis).
        killTimer = setTimeout(() => child.kill('SIGTERM'), KILL_GRACE_MS);
      }
    });
    let timedOut = false;
    const deadline = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
    let spawnError: Error | null = null;
    child.on('error', (e) => {
      spawnError = e;
    });
    // 'close' fires after stdout/stderr ended, so every line has been seen.
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      clearTimeout(deadline);
      const tail = stderr.toString();
      if (spawnError) return reject(new EnvironmentError(withTail(`cannot start ${exePath}: ${spawnError.message}`, tail)));
      if (timedOut) return reject(new RuntimeFailure(withTail(`${cmd}: did not finish within ${((opts.timeoutMs ?? 0) / 1000).toFixed(1)} s and was stopped`, tail)));
      if (protocolError) return reject(new RuntimeFailure(withTail(`${cmd}: printed output that spbench cannot read: ${protocolError}`, tail)));
      if (signal) return reject(new RuntimeFailure(withTail(`${cmd}: killed by signal ${signal} (crashed or was stopped)`, tail)));
      if (code === 2) {
        // Exit 2 means the child rejected what the user asked for (unknown method, bad input file):
        // its first stderr line is the sentence to show, as a usage error.
        const first = tail.replace(/^…/, '').split('\n').find((l) => l.trim().length > 0);
        if (first) return reject(new UserError(first.replace(/^[\w.-]+: /, '')));
      }
      if (code !== 0) {
        const meaning = EXIT_MEANING[code ?? -1];
        if (code === 4) return reject(new EnvironmentError(withTail(`${cmd}: exited with status ${code} (${meaning})`, tail)));
        return reject(new RuntimeFailure(withTail(`${cmd}: exited with status ${code}${meaning ? ` (${meaning})` : ''}`, tail)));
      }
      if (lines.length === 0) return reject(new RuntimeFailure(withTail(`${cmd}: printed no env line (no output at all)`, tail)));
      if (lines[lines.length - 1].type !== 'done') {
        return reject(new RuntimeFailure(withTail(`${cmd}: ended without a done line, so its output is incomplete`, tail)));
      }
      resolvePromise(lines);
    });
  });
}
