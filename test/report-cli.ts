// Runs the compiled CLI as a child (exit codes, stdout, stderr) and makes temporary folders.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export function cli(args: string[], env: Record<string, string | undefined> = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin', 'spbench.js'), ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, CI: '1', GITHUB_STEP_SUMMARY: undefined, ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'spbench-reports-'));
}

export function writeJson(dir: string, name: string, obj: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof obj === 'string' ? obj : JSON.stringify(obj));
  return p;
}
