// Parallel Matrix Market reading for large coordinate files: the entries are split at a line
// boundary into one byte range per worker; each worker parses its range (mtx-worker.ts) and
// scatters its triplets straight into shared CSR arrays (worker w's entries of a row follow those
// of workers < w, so file order within a row is kept). Any problem — a parse error, a wrong entry
// count — returns undefined and the caller re-reads serially, which reports the exact line.
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { canonicalizeRows, newRowPtr } from './csr.js';
import { MtxParser, preludeEnd, type MtxResult } from './mtx-parser.js';
import type { MtxHeader } from './types.js';

const workerUrl = new URL('./mtx-worker.js', import.meta.url);
const PRELUDE_MAX = 1 << 20;

interface PartReport {
  count: number;
  n: number;
  rowMajor: boolean;
  colMajor: boolean;
  first: [number, number] | null;
  last: [number, number] | null;
  counts: Int32Array;
}

export function parallelAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl));
}

export async function readMtxParallel(path: string, threads: number): Promise<MtxResult | undefined> {
  const fh = await open(path, 'r');
  let size: number, prelude: Buffer, dataStart: number;
  const splits: number[] = [];
  try {
    size = (await fh.stat()).size;
    const head = Buffer.alloc(Math.min(PRELUDE_MAX, size));
    await fh.read(head, 0, head.length, 0);
    dataStart = preludeEnd(head);
    if (dataStart < 0) return undefined;
    prelude = head.subarray(0, dataStart);
    splits.push(dataStart);
    for (let t = 1; t < threads; t++) {
      const at = dataStart + Math.floor(((size - dataStart) * t) / threads);
      const probe = Buffer.alloc(Math.min(1 << 16, size - at));
      await fh.read(probe, 0, probe.length, at);
      const nl = probe.indexOf(10);
      if (nl < 0) return undefined;
      splits.push(Math.max(splits[splits.length - 1], at + nl + 1));
    }
    splits.push(size);
  } finally {
    await fh.close();
  }
  const main = new MtxParser(path, size);
  main.consume(prelude, prelude.length); // validates banner and size line (throws with the line)
  if (!main.expectingEntries) return undefined;
  const { rows, cols, header } = main.part() as { rows: number; cols: number; header: MtxHeader };
  if (header.format !== 'coordinate') return undefined; // array positions depend on all earlier lines

  const workers = splits.slice(0, -1).map(
    (start, i) => new Worker(workerUrl, { workerData: { path, start, stop: splits[i + 1], prelude: prelude.toString('latin1') } }),
  );
  const nextMessage = (w: Worker) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`matrix reader worker exited (code ${code})`)));
    });
  try {
    const reports = (await Promise.all(workers.map(nextMessage))) as unknown as (PartReport & { error?: string })[];
    if (reports.some((r) => r.error)) return undefined;
    const total = reports.reduce((s, r) => s + r.count, 0);
    if (total !== main.entriesDeclared) return undefined;
    const nnz = reports.reduce((s, r) => s + r.n, 0);
    const rowPtr = newRowPtr(rows, nnz);
    // offsets: row r of worker w starts after rows < r (all workers) and row r of workers < w
    const nexts = reports.map(() => new Float64Array(new SharedArrayBuffer(8 * rows)));
    let at = 0;
    for (let r = 0; r < rows; r++) {
      rowPtr[r] = at;
      for (let w = 0; w < reports.length; w++) {
        nexts[w][r] = at;
        at += reports[w].counts[r];
      }
    }
    rowPtr[rows] = at;
    const colIdx = new Int32Array(new SharedArrayBuffer(4 * nnz));
    const values = new Float64Array(new SharedArrayBuffer(8 * nnz));
    const done = workers.map(nextMessage);
    workers.forEach((w, i) => w.postMessage({ next: nexts[i], colIdx, values }));
    await Promise.all(done);
    const matrix = { rows, cols, rowPtr, colIdx, values };
    if (!inOrder(reports)) canonicalizeRows(matrix);
    return { header, matrix };
  } catch {
    return undefined; // a worker failed (memory, crash): the serial reader will do the job
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** True when the whole file is row-major or column-major ordered (rows then come out sorted). */
function inOrder(parts: PartReport[]): boolean {
  const ok = (rowFirst: boolean) => {
    let prev: [number, number] | null = null;
    for (const p of parts) {
      if (!(rowFirst ? p.rowMajor : p.colMajor)) return false;
      if (prev && p.first) {
        const [a, b] = rowFirst ? [prev, p.first] : [[prev[1], prev[0]], [p.first[1], p.first[0]]];
        if (!(b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]))) return false;
      }
      if (p.last) prev = p.last;
    }
    return true;
  };
  return ok(true) || ok(false);
}
