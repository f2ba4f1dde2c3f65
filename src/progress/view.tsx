// The one live progress view (ink, on a TTY) of spbench spmm/spgemm and spbench run: log lines
// (and finished suite cases) scroll above a bar with done/total, elapsed, ETA and what runs now.
// Imported with `await import()` only when used, so startup stays fast.
import { Box, render, Static, Text } from 'ink';
import { formatDuration } from '../util/duration.js';
import { eventEta, type ProgressEvent } from './event.js';

export interface LogLine {
  text: string;
  colour?: string;
}

export type ProgressState = ProgressEvent & { logs: (string | LogLine)[] };

const WIDTH = 30;

export function ProgressView(props: ProgressState) {
  const eta = eventEta(props);
  const filled = props.total > 0 ? Math.round((Math.min(props.done, props.total) / props.total) * WIDTH) : 0;
  const logs = props.logs.map((l, id) => ({ id, ...(typeof l === 'string' ? { text: l, colour: undefined, dim: true } : { ...l, dim: false }) }));
  return (
    <Box flexDirection="column">
      <Static items={logs}>
        {(l) => (
          <Text key={l.id} color={l.colour} dimColor={l.dim}>
            {l.text}
          </Text>
        )}
      </Static>
      <Text>
        <Text color="green">{'█'.repeat(filled)}</Text>
        <Text dimColor>{'░'.repeat(WIDTH - filled)}</Text> {props.done}/{props.total} {props.title ? `${props.title} ` : ''}cases · elapsed {formatDuration(props.elapsedMs)}
        {eta === null ? '' : ` · ETA ${formatDuration(eta)}`}
      </Text>
      <Text>
        {props.total === 0 ? 'preparing: ' : props.done < props.total ? 'running ' : 'finished '}
        <Text bold>{props.label}</Text>
        {props.detail ? ` ${props.detail}` : ''}
      </Text>
    </Box>
  );
}

export interface LiveProgress {
  progress(p: ProgressEvent): void;
  log(line: string | LogLine): void;
  /** removes the view (the logs stay printed) */
  stop(): void;
}

/** Starts the view on `stdout`; it redraws every second so elapsed time moves between events. */
export function startProgressView(first: ProgressEvent, stdout: NodeJS.WriteStream = process.stdout): LiveProgress {
  const start = Date.now() - first.elapsedMs;
  const state: ProgressState = { ...first, logs: [] };
  const app = render(<ProgressView {...state} />, { stdout, patchConsole: false });
  const draw = (): void => {
    state.elapsedMs = Date.now() - start;
    app.rerender(<ProgressView {...state} logs={[...state.logs]} />);
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  return {
    progress(p) {
      Object.assign(state, { title: undefined, detail: undefined, etaMs: undefined }, p);
      draw();
    },
    log(line) {
      state.logs = [...state.logs, line];
      draw();
    },
    stop() {
      clearInterval(timer);
      app.clear();
      app.unmount();
    },
  };
}
