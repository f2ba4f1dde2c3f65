// Public surface of the native layer for the benchmark runners (src/bench/deps.ts): build cache,
// runner, backend choice.
export { ensureExecutable } from './executables.js';
export { runNative } from './runner.js';
export { chooseBackend, probeDevices } from './backend.js';
