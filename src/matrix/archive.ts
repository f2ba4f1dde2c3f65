// Compressed and archived Matrix Market input, streamed and never unpacked to disk:
//   NAME.mtx.gz                 gzip of one .mtx file
//   NAME.tar.gz | .tgz | .tar   a SuiteSparse archive: NAME/NAME.mtx and maybe NAME/NAME_b.mtx, …
// An argument `archive.tar.gz:NAME_b` picks another member; without one, the member named like the
// archive (NAME.mtx) is the matrix, or the only .mtx member when there is just one.
// gunzip is node:zlib; the tar stream is read by `tar` (npm's own tar library).
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { UserError } from '../util/errors.js';
import { MtxParser, type MtxResult } from './mtx-parser.js';
import { archiveStem, packedKind, type MatrixRef, type PackedKind } from './matrix-ref.js';
import { LineFeeder } from './stream-lines.js';
import type { MtxHeader } from './types.js';

/** Label used in messages for a member: `cant.tar.gz:cant/cant.mtx`. */
const memberLabel = (file: string, member: string) => `${file}:${member}`;

function ioError(file: string, err: unknown): Error {
  if (err instanceof UserError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e.message ?? '')) {
    return new UserError(`${file}: truncated gzip data (the file ends before the compressed stream does)`);
  }
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) return new UserError(`${file}: not valid gzip data (${e.message})`);
  if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') return new UserError(`${file}: cannot open: ${e.code}`);
  return new UserError(`${file}: cannot read: ${e.message ?? String(err)}`);
}

/** Streams the file's bytes (gunzipped for .gz/.tgz) into `sink`; errors name the file. */
async function pump(file: string, gz: boolean, sink: (chunk: Buffer) => void): Promise<void> {
  let sinkError: unknown;
  const consume = async function (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      try {
        sink(chunk);
      } catch (err) {
        sinkError = err;
        throw err;
      }
    }
  };
  try {
    const src = createReadStream(file, { highWaterMark: 1 << 20 });
    if (gz) await pipeline(src, createGunzip({ chunkSize: 1 << 20 }), consume);
    else await pipeline(src, consume);
  } catch (err) {
    // the parser's own error (file:line: …), not the abort it caused upstream
    throw sinkError ?? ioError(file, err);
  }
}

/** Reads a .mtx.gz through the Matrix Market parser (errors: `file.mtx.gz:LINE: …`). */
export async function readMtxGz(file: string): Promise<MtxResult> {
  const compressed = fileSize(file);
  const parser = new MtxParser(file, compressed * 8);
  const lines = new LineFeeder((buf, end) => parser.consume(buf, end));
  await pump(file, true, (chunk) => lines.push(chunk));
  lines.end();
  return parser.finish();
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (err) {
    throw ioError(file, err);
  }
}

export interface ArchiveMember {
  /** path inside the archive, e.g. `cant/cant.mtx` */
  path: string;
  bytes: number;
  /** banner and size line, for .mtx members whose first lines parse */
  header?: MtxHeader & { rows: number; cols: number; entries: number };
  error?: string;
}

interface TarVisit {
  /** return true to take the entry's data (then `data` gets it and `end` follows) */
  want(entry: ReadEntry): boolean;
  data(chunk: Buffer): void;
  end(): void;
}

/** One pass over a tar (gz) archive; every entry is listed, wanted entries are streamed. */
async function walkTar(file: string, kind: PackedKind, visit: TarVisit): Promise<{ path: string; bytes: number; type: string }[]> {
  const entries: { path: string; bytes: number; type: string }[] = [];
  let failure: unknown;
  const problems: string[] = [];
  const parser = new Parser({
    strict: false,
    onwarn: (code: string, message: string | Error) => {
      problems.push(`${typeof message === 'string' ? message : message.message} (${code})`);
    },
    onReadEntry: (entry: ReadEntry) => {
      entries.push({ path: entry.path, bytes: entry.size, type: entry.type });
      if (failure === undefined && entry.type === 'File' && visit.want(entry)) {
        entry.on('data', (chunk: Buffer) => {
          if (failure !== undefined) return;
          try {
            visit.data(chunk);
          } catch (err) {
            failure = err;
          }
        });
        entry.on('end', () => {
          if (failure !== undefined) return;
          try {
            visit.end();
          } catch (err) {
            failure = err;
          }
        });
      } else entry.resume();
    },
  });
  // a tar stream is whole 512-byte blocks and ends with zero blocks; anything else was cut short
  let total = 0;
  let tail: Buffer = Buffer.alloc(0);
  await pump(file, kind === 'tar-gz', (chunk) => {
    total += chunk.length;
    tail = chunk.length >= 512 ? chunk.subarray(chunk.length - 512) : Buffer.concat([tail, chunk]).subarray(-512);
    parser.write(chunk);
    if (failure !== undefined) throw failure;
  });
  await new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.end();
  });
  if (failure !== undefined) throw failure;
  if (problems.length) {
    throw new UserError(`${file}: ${/truncated/i.test(problems[0]) ? 'truncated tar archive' : 'not a valid tar archive'}: ${problems[0]}`);
  }
  if (total % 512 !== 0 || tail.length < 512 || tail.some((b) => b !== 0)) {
    throw new UserError(`${file}: truncated tar archive (it ends ${total % 512 !== 0 ? 'inside a 512-byte block' : 'without the end-of-archive blocks'})`);
  }
  if (entries.length === 0) throw new UserError(`${file}: not a valid tar archive (no entries)`);
  return entries;
}

const isMtx = (path: string) => path.toLowerCase().endsWith('.mtx');
const stemOf = (path: string) => basename(path).replace(/\.mtx$/i, '');

/** Which member a selector names: the full path, the file name, or the name without .mtx. */
function matches(path: string, selector: string): boolean {
  return path === selector || basename(path) === selector || stemOf(path) === selector;
}

/** The member read when none is asked for: NAME.mtx for NAME.tar.gz, else the only .mtx member. */
function mainMember(file: string, paths: string[]): string | undefined {
  const stem = archiveStem(file);
  const mtx = paths.filter(isMtx);
  return mtx.find((p) => stemOf(p) === stem) ?? (mtx.length === 1 ? mtx[0] : undefined);
}

function missingMember(file: string, selector: string | undefined, paths: string[]): UserError {
  const mtx = paths.filter(isMtx);
  const have = mtx.length ? `its .mtx members are ${mtx.join(', ')}` : `it holds no .mtx member (entries: ${paths.join(', ') || 'none'})`;
  if (selector !== undefined) return new UserError(`${file}: no member "${selector}"; ${have}`);
  if (mtx.length === 0) return new UserError(`${file}: no matrix member: ${have}`);
  return new UserError(`${file}: no member named ${archiveStem(file)}.mtx and several .mtx members (${mtx.join(', ')}); pick one as ${file}:NAME`);
}

/** Reads one matrix member of a tar(.gz) archive, streamed. */
export async function readArchiveMtx(ref: MatrixRef): Promise<MtxResult & { member: string }> {
  const kind = packedKind(ref.file);
  if (kind !== 'tar' && kind !== 'tar-gz') throw new UserError(`${ref.file}: not a .tar, .tar.gz or .tgz archive`);
  const size = fileSize(ref.file);
  const wanted = (path: string) => isMtx(path) && (ref.member !== undefined ? matches(path, ref.member) : stemOf(path) === archiveStem(ref.file));
  const attempt = async (pick: (path: string) => boolean) => {
    let result: (MtxResult & { member: string }) | undefined;
    let parser: MtxParser | undefined;
    let lines: LineFeeder | undefined;
    let member = '';
    const entries = await walkTar(ref.file, kind, {
      want: (e) => {
        if (parser || result || !pick(e.path)) return false;
        member = e.path;
        parser = new MtxParser(memberLabel(ref.file, e.path), Math.max(e.size, 0) || size * 8);
        const p = parser;
        lines = new LineFeeder((buf, end) => p.consume(buf, end));
        return true;
      },
      data: (chunk) => lines!.push(chunk),
      end: () => {
        lines!.end();
        result = { ...parser!.finish(), member };
      },
    });
    if (parser && !result) throw new UserError(`${memberLabel(ref.file, member)}: the archive ends inside this member (truncated archive)`);
    return { result, paths: entries.filter((e) => e.type === 'File').map((e) => e.path) };
  };
  const first = await attempt(wanted);
  if (first.result) return first.result;
  // nothing named like the archive: the only .mtx member, when there is exactly one
  const fallback = ref.member === undefined ? mainMember(ref.file, first.paths) : undefined;
  if (fallback === undefined) throw missingMember(ref.file, ref.member, first.paths);
  const second = await attempt((p) => p === fallback);
  if (!second.result) throw missingMember(ref.file, ref.member, second.paths);
  return second.result;
}

/** Every file member with its size (the main matrix first); .mtx members with their banner and size line. */
export async function listArchive(file: string, as?: PackedKind): Promise<{ members: ArchiveMember[]; main?: string }> {
  const kind = as ?? packedKind(file);
  if (kind !== 'tar' && kind !== 'tar-gz') throw new UserError(`${file}: not a .tar, .tar.gz or .tgz archive`);
  const heads = new Map<string, Buffer[]>();
  let current: Buffer[] = [];
  let got = 0;
  const entries = await walkTar(file, kind, {
    want: (e) => {
      if (!isMtx(e.path)) return false;
      current = [];
      got = 0;
      heads.set(e.path, current);
      return true;
    },
    data: (chunk) => {
      if (got < 1 << 16) {
        current.push(chunk.subarray(0, (1 << 16) - got));
        got += chunk.length;
      }
    },
    end: () => undefined,
  });
  const members: ArchiveMember[] = entries
    .filter((e) => e.type === 'File')
    .map((e) => {
      const head = heads.get(e.path);
      if (!head) return { path: e.path, bytes: e.bytes };
      try {
        return { path: e.path, bytes: e.bytes, header: prelude(memberLabel(file, e.path), Buffer.concat(head)) };
      } catch (err) {
        return { path: e.path, bytes: e.bytes, error: (err as Error).message };
      }
    });
  // the main matrix first, then the other matrices, then the rest (each in archive order)
  const main = mainMember(file, members.map((m) => m.path));
  const rank = (m: ArchiveMember) => (m.path === main ? 0 : isMtx(m.path) ? 1 : 2);
  return { members: members.map((m, i) => ({ m, i })).sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i).map(({ m }) => m), main };
  // `as`: the kind for a file whose name does not say it (a download in progress, NAME.tar.gz.part)
}

/** Banner and size line from the first bytes of a Matrix Market file (the one grammar: MtxParser). */
function prelude(label: string, head: Buffer): MtxHeader & { rows: number; cols: number; entries: number } {
  const parser = new MtxParser(label, head.length);
  let p = 0;
  let line = 0;
  while (p < head.length) {
    const nl = head.indexOf(10, p);
    if (nl < 0) break;
    const text = head.toString('latin1', p, nl).trim();
    parser.consume(head.subarray(p, nl + 1), nl + 1 - p);
    p = nl + 1;
    line++;
    // the size line is the first line after the banner that is neither blank nor a comment
    if (line > 1 && text !== '' && !text.startsWith('%')) {
      const { rows, cols, header } = parser.part();
      return { ...header, rows, cols, entries: parser.entriesDeclared };
    }
  }
  throw new UserError(`${label}: no size line in the first ${head.length} bytes`);
}
