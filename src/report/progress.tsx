// Live progress of spmm/spgemm on a TTY: the one progress view (src/progress/view.tsx) fed by the
// run's sink; explanations (--explain) are printed after it closes.
import type { BenchSink } from '../bench/api.js';
import { startProgressView } from '../progress/view.js';
import { explainOnce } from './plain.js';

/** Starts the live view; `stop()` removes it so that tables can be printed in its place. */
export function startProgress(opts: { quiet: boolean }): { sink: BenchSink; stop(): void } {
  const view = startProgressView({ done: 0, total: 0, label: 'choosing the backend (and building it on first use)', elapsedMs: 0 });
  const explains: string[] = [];
  const explain = explainOnce();
  const sink: BenchSink = {
    progress: (p) => view.progress(p),
    caseDone() {},
    log(message) {
      if (!opts.quiet) view.log(message);
    },
    explain(e) {
      const text = explain(e);
      if (text !== null) explains.push(text);
    },
  };
  return {
    sink,
    stop() {
      view.stop();
      for (const text of explains) process.stdout.write(`${text}\n\n`);
    },
  };
}
