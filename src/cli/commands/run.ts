// `spbench run suite.json`: runs every case of a suite and writes one result file.
import { Command, Option } from 'commander';
import type { BackendChoice } from '../../kinds.js';

export function register(program: Command): void {
  program
    .command('run')
    .description('Run a suite file (a list of spmm/spgemm cases) in one go and write one result file')
    .argument('<suite>', 'suite file (JSON), e.g. reports/suites/ci-smoke.json')
    .option('--json <file>', 'write the merged result file (spbench-results/1) here')
    .addOption(new Option('--backend <backend>', 'native backend').choices(['auto', 'cpu', 'cuda']).default('auto'))
    .option('--validate', 'only check the suite file and list its cases')
    .option('--shard <K/N|auto>', 'run only part K of N of the suite (balanced by estimated cost; auto: from SPBENCH_SHARD, Slurm array or GitLab variables); join the parts with spbench merge')
    .option('--devices <all|0,2,...>', 'one worker process per GPU, cases handed out longest first, one result file (each case records its device in params.device)')
    .option('--device <n>', 'run every case on this CUDA device (default: 0)')
    .option('--cases <names>', 'run only these suite cases (comma-separated names)')
    .addHelpText('after', '\nExamples:\n  spbench run reports/suites/ci-smoke.json --json new.json\n  spbench run reports/suites/paper-spmm.json --json paper.json --backend cuda\n  spbench run my-suite.json --validate\n  spbench run reports/suites/spgemm-wide.json --shard 2/4 --json part-2.json\n  spbench run reports/suites/spgemm-wide.json --devices all --json wide.json')
    .action(async (suitePath: string, opts: { json?: string; backend: BackendChoice; validate?: boolean; shard?: string; devices?: string; device?: string; cases?: string }) => {
      const { runSuiteCommand } = await import('../../suite/command.js');
      await runSuiteCommand(suitePath, opts);
    });
}
