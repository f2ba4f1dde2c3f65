// Entry point: builds the commander program from one module per command and maps errors to exit codes.
// Command modules register cheaply; heavy dependencies (ink, zod, the stats library) are imported inside actions.
import { Command, CommanderError } from 'commander';
import { packageVersion } from '../util/package-root.js';
import { EXIT, UserError, RuntimeFailure, type ExitCode } from '../util/errors.js';
import * as gen from './commands/gen.js';
import * as convert from './commands/convert.js';
import * as info from './commands/info.js';
import * as doctor from './commands/doctor.js';
import * as build from './commands/build.js';
import * as spmm from './commands/spmm.js';
import * as spgemm from './commands/spgemm.js';
import * as run from './commands/run.js';
import * as report from './commands/report.js';
import * as compare from './commands/compare.js';
import * as fetchCmd from './commands/fetch.js';
import * as merge from './commands/merge.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('spbench')
    .description('Benchmark GPU sparse kernels (batched SpMM, hash SpGEMM) against cuSPARSE/cuBLAS, verified; convert sparse matrix formats.')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false })
    // before the commands are added, so that they inherit it: a subcommand's usage error (an unknown option, a
    // missing argument) then reaches exitCodeFor (exit 2) instead of commander's own exit 1
    .exitOverride();
  for (const mod of [spmm, spgemm, gen, convert, info, doctor, build, run, merge, report, compare, fetchCmd]) mod.register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // a reader that closes early (`spbench run s.json --validate | head`, or `spbench spmm --bogus 2>&1 | head -1`,
  // where commander's second line of a usage error met the closed pipe and exited 1) is not an error of ours: the
  // exit code stays the one the command set
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
      throw e;
    });
  }
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

/** The exit code for what a command threw (the table is EXIT in src/util/errors.ts). */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CommanderError) {
    // help and version exit 0; usage errors were already printed by commander
    return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof UserError) {
    process.stderr.write(`spbench: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof RuntimeFailure) {
    process.stderr.write(`spbench: ${err.message}\n${err.detail ? `${err.detail.trimEnd()}\n` : ''}`);
    return err.exitCode;
  }
  const e = err as Error;
  process.stderr.write(`spbench: internal error (a bug in spbench, please report it): ${e?.stack ?? String(err)}\n`);
  return EXIT.internal;
}
