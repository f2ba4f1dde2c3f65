// The environment a result file records: host, spbench version and commit, command line, and
// (from the native env line) backend, device and CUDA versions.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import type { EnvLine } from '../native/protocol.js';
import { RESULT_SCHEMA, type CaseResult, type ResultFile } from '../results/schema.js';
import { givenCommit } from '../config.js';
import { PACKAGE_DIR, packageVersion } from '../util/package-root.js';


/**
 * $SPBENCH_COMMIT when it is a full sha: it wins, because a copied tree (the GPU machine gets one) may
 * carry a .git whose HEAD is older than the files beside it. Else HEAD of the package directory when
 * it is a git checkout (a worktree has a .git file); else null.
 */
export function gitCommit(dir = PACKAGE_DIR, env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = givenCommit(env);
  if (fromEnv || !existsSync(join(dir, '.git'))) return fromEnv;
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
    const sha = out.trim();
    return /^[0-9a-f]{40}$/.test(sha) ? sha : fromEnv;
  } catch {
    return fromEnv; // git missing or .git without a repository (a copied tree): unknown unless given
  }
}

export function hostInfo(): ResultFile['host'] {
  const list = cpus();
  return {
    hostname: hostname(),
    platform: `${process.platform}-${process.arch}`,
    cpus: list.length ? `${list.length} × ${list[0].model.trim()}` : 'unknown',
    node: process.version,
  };
}

/** The command line as the user typed it (program name plus arguments). */
export function commandLine(argv = process.argv): string[] {
  return ['spbench', ...argv.slice(2)];
}

export function assembleResultFile(opts: { backend: 'cpu' | 'cuda'; env: EnvLine | null; cases: CaseResult[]; argv?: string[]; profile?: ResultFile['profile'] }): ResultFile {
  return {
    schema: RESULT_SCHEMA,
    created: new Date().toISOString(),
    spbench: { version: packageVersion(), commit: gitCommit() },
    command: commandLine(opts.argv),
    host: hostInfo(),
    backend: opts.backend,
    // the native side runs on the first device it lists
    device: opts.backend === 'cuda' ? (opts.env?.devices[0] ?? null) : null,
    env: opts.env,
    cases: opts.cases,
    ...(opts.profile ? { profile: opts.profile } : {}),
  };
}
