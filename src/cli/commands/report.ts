// `spbench report results.json --format md|csv|html|svg|bmf|benchmark-action`: renders or exports a result file;
// several files (of different devices) are put side by side (src/scale/device-report.ts).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('report')
    .description('Render a result file as Markdown tables, CSV, SVG plots or a self-contained HTML page, or export it for a dashboard (Bencher Metric Format, github-action-benchmark JSON); several files of different devices side by side')
    .argument('<results...>', 'result file written by --json or spbench run; several files of different devices are put side by side (md, csv, html, svg)')
    .option('-f, --format <format>', 'md | csv | html | svg | bmf (Bencher Metric Format) | benchmark-action (github-action-benchmark, customSmallerIsBetter)', 'md')
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .option('--baseline <method>', 'method that speedups and memory ratios are relative to (default: the fastest peer per matrix)')
    .addHelpText('after', '\nExamples:\n  spbench report new.json\n  spbench report new.json --format html -o report.html\n  spbench report spgemm.json --format svg --baseline cusparse-alg1 -o spgemm.svg\n  spbench report new.json --format bmf -o bmf.json                  # bencher run --adapter json --file bmf.json\n  spbench report new.json --format benchmark-action -o bench.json   # github-action-benchmark, tool: customSmallerIsBetter\n  spbench report h100.json h200.json --format html -o devices.html  # the same cases on two devices')
    .action(async (paths: string[], opts: { format: string; output?: string; baseline?: string }) => {
      if (paths.length > 1) {
        const { devicesReportCommand } = await import('../../scale/device-report-command.js');
        await devicesReportCommand(paths, opts);
        return;
      }
      const { reportCommand } = await import('../../report/command.js');
      await reportCommand(paths[0], opts);
    });
}
