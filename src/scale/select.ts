// `run --shard K/N|auto`: which shard this process runs (from the option or the scheduler's
// variables) and the record of it that goes into the result file.
import { schedulerShard } from '../config.js';
import type { ResultFile } from '../results/schema.js';
import type { Suite } from '../suite/schema.js';
import { UserError } from '../util/errors.js';
import { parseShard, shardCases, type ShardSpec } from './shard.js';

export type ShardRecord = NonNullable<ResultFile['shard']>;

/** The shard named by `--shard` ("K/N" or "auto"). */
export function resolveShard(option: string, env: NodeJS.ProcessEnv = process.env): ShardSpec {
  if (option.trim() !== 'auto') return parseShard(option);
  const s = schedulerShard(env);
  if (!s) throw new UserError('--shard auto: none of SPBENCH_SHARD, SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or CI_NODE_INDEX/CI_NODE_TOTAL is set; give --shard K/N');
  if (s.shard === null) throw new UserError(`--shard auto: ${s.from}; give --shard K/N`);
  return parseShard(s.shard, `--shard auto (from ${s.from})`);
}

/** The suite cut down to the shard's cases, and what the result file records about it. */
export interface Selected {
  suite: Suite;
  record: ShardRecord;
}

export function selectShard(suite: Suite, shard: ShardSpec): Selected {
  const cases = shardCases(suite, shard);
  return {
    suite: { ...suite, cases },
    record: { suite: suite.name, index: shard.index, count: shard.count, suite_cases: suite.cases.map((c) => c.name), cases: cases.map((c) => c.name) },
  };
}
