// Live progress for `spbench run` on a TTY: the one progress view (src/progress/view.tsx) on stderr;
// finished cases and log lines scroll above it.
import { formatDuration } from '../util/duration.js';
import { startProgressView } from '../progress/view.js';
import type { SuiteSink } from './run.js';

export function inkSink(): SuiteSink & { close(): void } {
  const view = startProgressView({ done: 0, total: 0, label: '', elapsedMs: 0 }, process.stderr);
  return {
    progress: (p) => view.progress(p),
    caseDone(name, cases, ms) {
      const results = cases.flatMap((c) => c.results);
      const bad = results.filter((r) => r.status === 'failed' || r.status === 'error').length;
      view.log({ text: `✓ ${name}: ${results.length} result(s)${bad ? `, ${bad} FAILED/ERROR` : ''} in ${formatDuration(ms)}`, colour: bad ? 'red' : 'green' });
    },
    caseFailed(name, error) {
      view.log({ text: `✗ ${name}: ${error.message}`, colour: 'red' });
    },
    log(message) {
      view.log({ text: message, colour: 'yellow' });
    },
    close: () => view.stop(),
  };
}
