// Public surface of the native layer: build cache, runner, backend choice, toolchain discovery.
export { ensureExecutable, type EnsureOptions } from './executables.js';
export { runNative, type RunNativeOptions } from './runner.js';
export { chooseBackend, probeDevices, probe, type Backend, type Op } from './backend.js';
export { discoverToolchain, type Toolchain } from './toolchain.js';
export { TARGETS, isTargetName, type TargetName } from './targets.js';
