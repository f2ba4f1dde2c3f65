// Live progress for `spbench run` on a TTY (ink): cases done, current case, elapsed, ETA; finished
// cases and log lines scroll above the live line. Each event re-renders with new props
// (app.rerender), so the last lines are on screen before unmount.
import React from 'react';
import { Box, Static, Text, render } from 'ink';
import type { SuiteProgress, SuiteSink } from './run.js';
import { formatDuration as duration } from '../util/duration.js';

interface Line {
  id: number;
  text: string;
  colour?: string;
}

function View({ lines, progress: p }: { lines: Line[]; progress: SuiteProgress | null }) {
  return (
    <Box flexDirection="column">
      <Static items={lines}>{(l) => <Text key={l.id} color={l.colour}>{l.text}</Text>}</Static>
      {p && p.current ? (
        <Box>
          <Text color="cyan">{`[${p.casesDone}/${p.casesTotal}] `}</Text>
          <Text bold>{p.current}</Text>
          <Text>{` ${p.detail}`}</Text>
          <Text dimColor>{` · elapsed ${duration(p.elapsedMs)} · ETA ${duration(p.etaMs)}`}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

export function inkSink(): SuiteSink & { close(): void } {
  let lines: Line[] = [];
  let progress: SuiteProgress | null = null;
  const app = render(<View lines={lines} progress={progress} />, { stdout: process.stderr, patchConsole: false });
  const update = () => app.rerender(<View lines={lines} progress={progress} />);
  const add = (text: string, colour?: string) => {
    lines = [...lines, { id: lines.length, text, colour }];
    update();
  };
  return {
    progress(p) {
      progress = p;
      update();
    },
    caseDone(name, cases, ms) {
      const results = cases.flatMap((c) => c.results);
      const bad = results.filter((r) => r.status === 'failed' || r.status === 'error').length;
      add(`✓ ${name}: ${results.length} result(s)${bad ? `, ${bad} FAILED/ERROR` : ''} in ${duration(ms)}`, bad ? 'red' : 'green');
    },
    caseFailed(name, error) {
      add(`✗ ${name}: ${error.message}`, 'red');
    },
    log(message) {
      add(message, 'yellow');
    },
    close() {
      progress = null;
      update();
      app.unmount();
    },
  };
}
