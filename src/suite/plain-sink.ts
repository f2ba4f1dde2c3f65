// Plain-line progress for `spbench run` when stderr is not a TTY (CI logs): the one progress line
// (src/progress/event.ts) when a case starts and at most one per `everyMs` while it runs, and a
// line when a case ends.
import { plainProgress } from '../progress/event.js';
import { formatDuration } from '../util/duration.js';
import type { SuiteSink } from './run.js';

export function plainSuiteSink(write: (line: string) => void, everyMs = 10_000): SuiteSink {
  const progress = plainProgress(write, everyMs);
  return {
    progress,
    caseDone(name, cases, ms) {
      const results = cases.flatMap((c) => c.results);
      const bad = results.filter((r) => r.status === 'failed' || r.status === 'error').length;
      write(`done ${name}: ${cases.length} case(s), ${results.length} result(s)${bad ? `, ${bad} FAILED/ERROR` : ''} in ${formatDuration(ms)}`);
    },
    caseFailed(name, error) {
      write(`FAILED ${name}: ${error.message}`);
    },
    log(message) {
      write(message);
    },
  };
}
