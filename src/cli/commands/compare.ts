// `spbench compare base.json new.json`: verdict per (case, method); exit 1 on a regression.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('compare')
    .description('Compare two result files per (case, method): ratio of medians with a confidence interval and a test (Welch on run medians with --repeat runs, else Mann-Whitney U on samples); exit 1 on a regression')
    .argument('<base>', 'baseline result file')
    .argument('<new>', 'new result file')
    .option('--threshold <percent>', 'slowdown (%) a significant change must exceed to count as a regression', '5')
    .option('--alpha <p>', 'significance level of the test', '0.05')
    .option('--markdown [file]', 'write a Markdown summary (to FILE, else to $GITHUB_STEP_SUMMARY when set, else stdout)')
    .option('--junit <file>', 'write JUnit XML: one test case per (case, method)')
    .option('--strict-env', 'different devices or CUDA versions are an error (exit 2), not a warning')
    .option('--across-devices', 'compare files of different device kinds (e.g. H100 vs H200): the verdict is then about the devices, not the code')
    .option('--normalize-by-peers', "divide each ratio by the geometric-mean ratio of its case's verified peers (cuSPARSE/cuBLAS, unchanged code) before judging, to cancel machine drift")
    .addHelpText('after', '\nExit codes: 0 no regression, 1 regression (or a failed method in new), 2 usage or input error (files of different device kinds without --across-devices), 5 no regression but a slower method whose new run was throttled (verdict throttled: rerun on an unthrottled GPU).\n\nExamples:\n  spbench compare reports/baselines/h100/ci-smoke.json new.json --markdown --junit perf.xml\n  spbench compare base.json new.json --threshold 10 --strict-env\n  spbench compare h100.json h200.json --across-devices')
    .action(async (base: string, next: string, opts: { threshold: string; alpha: string; markdown?: string | boolean; junit?: string; strictEnv?: boolean; normalizeByPeers?: boolean; acrossDevices?: boolean }) => {
      const { compareCommand } = await import('../../compare/command.js');
      await compareCommand(base, next, opts);
    });
}
