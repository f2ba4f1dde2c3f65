// `spbench build`: compile the native executables ahead of time into the cache and print their paths.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('build')
    .description('Build the native executables now (normally built on first use) and print their cached paths')
    .option('--rebuild', 'rebuild even when a cached executable is up to date')
    .option('--target <names>', 'comma-separated: cpu, mtx-addon, probe, spmm-cuda, spgemm-cuda (default: every target this machine can build)')
    .option('--kernel <file.cu>', 'build this plugin (docs/plugins.md) with its runner instead of the targets; repeat for several (a compile error exits 2 naming the file and line)', (v: string, prev: string[] = []) => [...prev, v])
    .addHelpText('after', '\nExamples:\n  spbench build\n  spbench build --target cpu --rebuild\n  SPBENCH_CUDA_ARCH=90 spbench build --target spmm-cuda\n  SPBENCH_CUDA_ARCH=90 spbench build --kernel my_spmm.cu      compile-check a plugin (no GPU needed)')
    .action(async (opts: { rebuild?: boolean; target?: string; kernel?: string[] }) => {
      if (opts.kernel?.length) {
        const { buildPluginFiles } = await import('../../plugins/cli.js');
        for (const b of await buildPluginFiles(opts.kernel, { rebuild: opts.rebuild, log: (s) => process.stderr.write(`${s}\n`) })) process.stdout.write(`${b.method.padEnd(12)} ${b.path}\n`);
        return;
      }
      const { isTargetName, TARGETS } = await import('../../native/targets.js');
      const { buildTargets } = await import('../../native/doctor.js');
      let targets: Array<(typeof TARGETS)[number]> | undefined;
      if (opts.target !== undefined) {
        const names = opts.target.split(',').map((s) => s.trim()).filter(Boolean);
        const bad = names.filter((n) => !isTargetName(n));
        if (bad.length || names.length === 0) throw new UserError(`--target: unknown target '${bad[0] ?? ''}' (known: ${TARGETS.join(', ')})`);
        targets = names.filter(isTargetName);
      }
      const built = await buildTargets({ targets, rebuild: opts.rebuild, log: (s) => process.stderr.write(`${s}\n`) });
      for (const b of built) process.stdout.write(`${b.target.padEnd(12)} ${b.path ?? `skipped: ${b.skipped}`}\n`);
    });
}
