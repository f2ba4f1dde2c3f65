// `spbench report results.json --format md|csv|html|svg|bmf|benchmark-action`: renders or exports a result file.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('report')
    .description('Render a result file as Markdown tables, CSV, SVG plots or a self-contained HTML page, or export it for a dashboard (Bencher Metric Format, github-action-benchmark JSON)')
    .argument('<results>', 'result file written by --json or spbench run')
    .option('-f, --format <format>', 'md | csv | html | svg | bmf (Bencher Metric Format) | benchmark-action (github-action-benchmark, customSmallerIsBetter)', 'md')
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .option('--baseline <method>', 'method that speedups and memory ratios are relative to (default: the fastest peer per matrix)')
    .addHelpText('after', '\nExamples:\n  spbench report new.json\n  spbench report new.json --format html -o report.html\n  spbench report spgemm.json --format svg --baseline cusparse-alg1 -o spgemm.svg\n  spbench report new.json --format bmf -o bmf.json                  # bencher run --adapter json --file bmf.json\n  spbench report new.json --format benchmark-action -o bench.json   # github-action-benchmark, tool: customSmallerIsBetter')
    .action(async (path: string, opts: { format: string; output?: string; baseline?: string }) => {
      const { reportCommand } = await import('../../report/command.js');
      await reportCommand(path, opts);
    });
}
