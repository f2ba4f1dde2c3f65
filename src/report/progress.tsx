// Live progress on a TTY (ink): cases done / total, current case, elapsed, ETA; log lines (backend
// choice, builds) stay printed above it. Imported with `await import()` only when used, so startup stays fast.
import { Box, render, Static, Text } from 'ink';
import type { RunProgress } from '../bench/api.js';
import type { BenchSink } from '../bench/native-run.js';
import { etaMs, formatDuration as fmtDuration } from '../util/duration.js';
import { explainOnce } from './plain.js';

export interface ProgressState extends RunProgress {
  logs: string[];
}

export function ProgressView(props: ProgressState) {
  const eta = props.total > 0 ? etaMs(props.elapsedMs, props.done / props.total) : null;
  const width = 30;
  const filled = props.total > 0 ? Math.round((props.done / props.total) * width) : 0;
  return (
    <Box flexDirection="column">
      <Static items={props.logs}>
        {(l, i) => (
          <Text key={i} dimColor>
            {l}
          </Text>
        )}
      </Static>
      <Text>
        <Text color="green">{'█'.repeat(filled)}</Text>
        <Text dimColor>{'░'.repeat(width - filled)}</Text> {props.done}/{props.total} cases · elapsed {fmtDuration(props.elapsedMs)}
        {eta === null ? '' : ` · ETA ${fmtDuration(eta)}`}
      </Text>
      <Text>
        {props.total === 0 ? 'preparing: ' : props.done < props.total ? 'running ' : 'finished '}
        <Text bold>{props.label}</Text>
      </Text>
    </Box>
  );
}

/** Starts the live view; `stop()` removes it so that tables can be printed in its place. */
export function startProgress(opts: { quiet: boolean }): { sink: BenchSink; stop(): void } {
  const start = Date.now();
  const state: ProgressState = { done: 0, total: 0, label: 'choosing the backend (and building it on first use)', elapsedMs: 0, logs: [] };
  const explains: string[] = [];
  const explain = explainOnce();
  const app = render(<ProgressView {...state} />, { patchConsole: false });
  const draw = (): void => {
    state.elapsedMs = Date.now() - start;
    app.rerender(<ProgressView {...state} logs={[...state.logs]} />);
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  const sink: BenchSink = {
    progress(p) {
      Object.assign(state, p);
      draw();
    },
    caseDone() {},
    log(message) {
      if (opts.quiet) return;
      state.logs = [...state.logs, message];
      draw();
    },
    explain(e) {
      const text = explain(e);
      if (text !== null) explains.push(text);
    },
  };
  return {
    sink,
    stop() {
      clearInterval(timer);
      app.clear();
      app.unmount();
      for (const text of explains) process.stdout.write(`${text}\n\n`);
    },
  };
}
