// `spbench doctor`: toolchain, GPUs, libraries, and which backend spmm/spgemm will use and why.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('Check the CUDA toolchain, GPUs and libraries, and say which backend spmm/spgemm will use and why')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nExamples:\n  spbench doctor\n  spbench doctor --json')
    .action(async (opts: { json?: boolean }) => {
      const { doctorReport, formatDoctor } = await import('../../native/doctor.js');
      const log = opts.json ? undefined : (s: string) => process.stderr.write(`${s}\n`);
      const report = await doctorReport(log);
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
    });
}
