// Plain-line progress for `spbench run` when stdout is not a TTY (CI logs): one line when a case
// starts and ends, and at most one progress line per `everyMs` while it runs.
import type { SuiteProgress, SuiteSink } from './run.js';
import { formatDuration as duration } from '../util/duration.js';

export function progressText(p: SuiteProgress): string {
  const head = `[${p.casesDone}/${p.casesTotal}] ${p.suite}`;
  const cur = p.current ? `: ${p.current} (${p.detail})` : ': done';
  return `${head}${cur} · elapsed ${duration(p.elapsedMs)} · ETA ${p.current ? duration(p.etaMs) : '0 s'}`;
}

export function plainSink(write: (line: string) => void, everyMs = 10_000): SuiteSink {
  let lastCase = '';
  let lastAt = -Infinity;
  return {
    progress(p) {
      if (p.current !== lastCase || p.elapsedMs - lastAt >= everyMs) {
        lastCase = p.current;
        lastAt = p.elapsedMs;
        if (p.current) write(progressText(p));
      }
    },
    caseDone(name, cases, ms) {
      const results = cases.flatMap((c) => c.results);
      const bad = results.filter((r) => r.status === 'failed' || r.status === 'error').length;
      write(`done ${name}: ${cases.length} case(s), ${results.length} result(s)${bad ? `, ${bad} FAILED/ERROR` : ''} in ${duration(ms)}`);
    },
    caseFailed(name, error) {
      write(`FAILED ${name}: ${error.message}`);
    },
    log(message) {
      write(message);
    },
  };
}
