// The rendering edge of `spmm` and `spgemm`, chosen once: ink progress + tables on a TTY, plain
// lines when not a TTY or CI is set, the result file with --json FILE, only JSON with --json -.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { BenchSink } from '../bench/api.js';
import type { ResultFile } from '../results/schema.js';
import { writeResultFile } from '../results/write.js';
import { renderPlain, plainSink } from '../report/plain.js';
import { UserError } from '../util/errors.js';
import { inCi } from '../config.js';

export interface OutputOptions {
  json?: string;
  quiet: boolean;
}

/** Fails before any work when --json names a file in a directory that does not exist. */
export function checkJsonTarget(json: string | undefined): void {
  if (json === undefined || json === '-') return;
  const dir = dirname(resolve(json));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`--json: directory '${dirname(json)}' does not exist`);
  if (existsSync(json) && statSync(json).isDirectory()) throw new UserError(`--json: '${json}' is a directory`);
}

export function useTty(json: string | undefined): boolean {
  return Boolean(process.stdout.isTTY) && !inCi() && json !== '-';
}

export async function runWithOutput(opts: OutputOptions, exec: (sink: BenchSink) => Promise<ResultFile>): Promise<void> {
  checkJsonTarget(opts.json);
  const jsonOnly = opts.json === '-';
  const tty = useTty(opts.json);
  let sink: BenchSink;
  let stop = (): void => {};
  if (tty && !opts.quiet) {
    const view = (await import('../report/progress.js')).startProgress({ quiet: opts.quiet });
    sink = view.sink;
    stop = view.stop;
  } else {
    sink = plainSink({ quiet: opts.quiet, out: jsonOnly ? process.stderr : process.stdout });
  }
  let file: ResultFile;
  try {
    file = await exec(sink);
  } finally {
    stop();
  }
  if (jsonOnly) {
    writeResultFile('-', file);
    return;
  }
  const rendered = tty ? (await import('../report/table.js')).renderTables(file) : renderPlain(file);
  process.stdout.write(`${rendered}\n`);
  if (opts.json !== undefined) {
    writeResultFile(opts.json, file);
    if (!opts.quiet) process.stderr.write(`wrote ${opts.json}\n`);
  }
  const bad = file.cases.flatMap((c) => c.results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => `${c.id} ${r.method} (${r.status})`));
  if (bad.length) process.stderr.write(`${bad.length} method result(s) failed or errored:\n  ${bad.join('\n  ')}\n`);
}
