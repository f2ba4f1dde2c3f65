// Runs the real CLI (compiled, through bin/spbench.js) with CI set, so output is plain lines.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/spbench.js', import.meta.url));

export function spbench(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, CI: '1', ...env }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
