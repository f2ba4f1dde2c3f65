// runNative against fake children: each way a child can misbehave is a RuntimeFailure that names
// the problem and quotes the child's stderr tail; a well-behaved child yields validated lines.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RuntimeFailure, UserError } from '../src/util/errors.js';
import { parseNativeLine, type NativeLine } from '../src/native/protocol.js';
import { runNative, STDERR_TAIL_BYTES } from '../src/native/runner.js';
import { tempDir, writeScript } from './native-fixtures.js';

const dir = tempDir('runner');
const ENV = JSON.stringify({ type: 'env', protocol: 1, backend: 'cpu', executable: 'fake' });
const DONE = JSON.stringify({ type: 'done' });
const RESULT = JSON.stringify({
  type: 'result', op: 'spmm', method: 'cpu-csr', family: 'reference', params: { nb: 4 }, status: 'ok', timed_region: 'cpu-wall',
  samples_ms: [1, 2], flops: 8, bytes_moved: 10, peak_mem_bytes: 16,
  verify: { checked: true, passed: true, max_rel_err: 0, tol: 1e-4, reference: 'cpu-f64' },
});

/** A fake native executable: prints `stdout` lines, `stderr` text, then ends as `end` says. */
function child(name: string, stdout: string[], stderr: string, end: string): string {
  return writeScript(
    dir,
    name,
    `#!/usr/bin/env node
for (const l of ${JSON.stringify(stdout)}) process.stdout.write(l + '\\n');
process.stderr.write(${JSON.stringify(stderr)});
${end}
`,
  );
}

async function failure(exe: string, args: string[] = []): Promise<RuntimeFailure> {
  try {
    await runNative(exe, args);
  } catch (e) {
    assert.ok(e instanceof RuntimeFailure, `expected a RuntimeFailure, got ${String(e)}`);
    return e;
  }
  assert.fail('runNative resolved');
}

describe('runNative', () => {
  it('a well-behaved child: every line validated, passed to onLine, returned in order', async () => {
    const exe = child('ok', [ENV, RESULT, '', DONE], 'a note on stderr\n', '');
    const seen: string[] = [];
    const lines = await runNative(exe, ['spmm'], { onLine: (l) => seen.push(l.type) });
    assert.deepEqual(lines.map((l) => l.type), ['env', 'result', 'done']);
    assert.deepEqual(seen, ['env', 'result', 'done']);
  });

  const cases: Array<[string, () => string, RegExp]> = [
    ['bad JSON', () => child('badjson', [ENV, '{"type": "result", oops'], 'stderr says hello\n', ''), /printed output that spbench cannot read: native output line 2 is not JSON/],
    ['a line that violates the schema', () => child('schema', [ENV, RESULT.replace('"samples_ms":[1,2]', '"samples_ms":[-1]')], 'stderr says hello\n', ''), /line 2 does not match protocol v1: samples_ms\.0:/],
    ['a non-zero exit', () => child('exit1', [ENV], 'stderr says hello\n', 'process.exit(1);'), /exited with status 1/],
    ['exit 3 (runtime failure)', () => child('exit3', [ENV], 'stderr says hello\n', 'process.exit(3);'), /exited with status 3 \(CUDA or runtime failure\)/],
    ['death by a signal', () => child('signal', [ENV], 'stderr says hello\n', "process.kill(process.pid, 'SIGSEGV');"), /killed by signal SIGSEGV/],
    ['no done line', () => child('nodone', [ENV, RESULT], 'stderr says hello\n', ''), /ended without a done line/],
    ['no env line first', () => child('noenv', [RESULT, DONE], 'stderr says hello\n', ''), /first line must be 'env'/],
    ['no output at all', () => child('silent', [], 'stderr says hello\n', ''), /printed no env line/],
  ];
  for (const [name, make, message] of cases) {
    it(`${name} → RuntimeFailure naming it, with the stderr tail`, async () => {
      const e = await failure(make(), ['spmm', '--nb', '4']);
      assert.match(e.message, message);
      assert.match(e.message, /spmm --nb 4/, 'names the command');
      assert.match(e.message, /--- stderr \(last 4096 bytes\) ---\nstderr says hello/);
    });
  }

  it('a child that keeps running after a bad line is stopped, and the bad line is reported', async () => {
    const t0 = Date.now();
    const e = await failure(child('hang', [ENV, 'garbage'], 'stderr says hello\n', 'setTimeout(() => {}, 60000);'));
    assert.match(e.message, /line 2 is not JSON: garbage/);
    assert.match(e.message, /stderr says hello/);
    assert.ok(Date.now() - t0 < 10_000);
  });

  it('timeoutMs stops a child that runs too long', async () => {
    const exe = child('slow', [ENV], 'stderr says hello\n', 'setTimeout(() => {}, 60000);');
    await assert.rejects(runNative(exe, [], { timeoutMs: 500 }), /slow: did not finish within 0\.5 s and was stopped\n--- stderr .*\nstderr says hello/);
  });

  it('an executable that cannot start', async () => {
    const e = await failure(join(dir, 'does-not-exist'));
    assert.match(e.message, /cannot start .*does-not-exist: .*ENOENT/);
    assert.match(e.message, /\(stderr was empty\)/);
  });

  it('keeps only the tail of a long stderr', async () => {
    const e = await failure(child('long', [ENV], `${'BEGIN'}${'x'.repeat(3 * STDERR_TAIL_BYTES)}THE END\n`, 'process.exit(1);'));
    assert.match(e.message, /THE END/);
    assert.doesNotMatch(e.message, /BEGIN/);
    assert.ok(e.message.length < STDERR_TAIL_BYTES + 500);
  });
});

describe('parseNativeLine', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['not JSON', 'nope', /line 3 is not JSON: nope/],
    ['unknown type', '{"type":"hello"}', /line 3 does not match protocol v1: type:/],
    ['wrong protocol version', ENV.replace('"protocol":1', '"protocol":2'), /: protocol:/],
    ['unknown backend', ENV.replace('"cpu"', '"tpu"'), /: backend:/],
    ['negative sample', RESULT.replace('"samples_ms":[1,2]', '"samples_ms":[1,-2]'), /: samples_ms\.1:/],
    ['unknown status', RESULT.replace('"status":"ok"', '"status":"great"'), /: status:/],
    ['missing verify.tol', RESULT.replace('"tol":0.0001,', ''), /: verify\.tol:/],
    ['NaN written as null', RESULT.replace('"flops":8', '"flops":null'), /: flops:/],
    ['bad GPU field', ENV.replace('}', ',"devices":[{"index":0,"name":"H100","cc":"9.0","sms":0}]}'), /: devices\.0\.sms:/],
  ];
  for (const [name, line, message] of bad) {
    it(`rejects ${name}, naming the field`, () => {
      assert.throws(() => parseNativeLine(line, 3), message);
    });
  }

  it('accepts the lines the native side writes', () => {
    const l: NativeLine = parseNativeLine(RESULT, 1);
    assert.equal(l.type, 'result');
    const env = parseNativeLine(ENV, 1);
    assert.ok(env.type === 'env' && env.devices.length === 0, 'devices default to []');
  });
});

describe('runNative usage errors', () => {
  it("turns exit status 2 into a usage error carrying the child's first stderr sentence", async () => {
    const exe = writeScript(tempDir('exit2'), 'fake-native', "#!/bin/sh\necho \"fake-native: unknown method 'foo' (known: all, a, b)\" >&2\necho 'usage: fake-native spmm ...' >&2\nexit 2\n");
    await assert.rejects(runNative(exe, []), (err: unknown) => {
      assert.ok(err instanceof UserError, 'a UserError (exit code 2 at the CLI)');
      assert.equal((err as Error).message, "unknown method 'foo' (known: all, a, b)");
      return true;
    });
  });
});
