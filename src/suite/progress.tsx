// Live progress for `spbench run` on a TTY (ink): cases done, current case, elapsed, ETA; finished
// cases and log lines scroll above the live line.
import React, { useEffect, useState } from 'react';
import { Box, Static, Text, render } from 'ink';
import type { SuiteProgress, SuiteSink } from './run.js';
import { duration } from './plain-sink.js';

interface Line {
  id: number;
  text: string;
  colour?: string;
}

interface Store {
  progress: SuiteProgress | null;
  lines: Line[];
  listeners: Set<() => void>;
}

function View({ store }: { store: Store }) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    store.listeners.add(l);
    return () => {
      store.listeners.delete(l);
    };
  }, [store]);
  const p = store.progress;
  return (
    <Box flexDirection="column">
      <Static items={store.lines}>{(l) => <Text key={l.id} color={l.colour}>{l.text}</Text>}</Static>
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
  const store: Store = { progress: null, lines: [], listeners: new Set() };
  const notify = () => store.listeners.forEach((l) => l());
  const add = (text: string, colour?: string) => {
    store.lines = [...store.lines, { id: store.lines.length, text, colour }];
    notify();
  };
  const app = render(<View store={store} />, { stdout: process.stderr, patchConsole: false });
  return {
    progress(p) {
      store.progress = p;
      notify();
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
      store.progress = null;
      notify();
      app.unmount();
    },
  };
}
