// The manifest of a user kernel (plugin): the JSON between R"spbench( and )spbench" in its .cu file,
// read before anything is compiled, so spbench knows the method's name and what it supports and can
// mark the rest not applicable with the reason (docs/plugins.md, cuda/include/spbench_plugin.h).
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { z } from 'zod';
import { UserError } from '../util/errors.js';

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/;

const Common = {
  name: z.string().regex(NAME, 'must start with a letter and use only letters, digits, "-", "_" and "." (at most 40 characters)'),
  description: z.string().optional(),
  precisions: z.array(z.enum(['f32', 'f64'])).min(1),
};

export const SpmmManifest = z.strictObject({
  ...Common,
  op: z.literal('spmm'),
  formats: z.array(z.enum(['csr', 'coo'])).min(1),
  layouts: z.array(z.enum(['row', 'col'])).min(1),
  mixed: z.boolean(),
  graph: z.boolean(),
});
export const SpgemmManifest = z.strictObject({
  ...Common,
  op: z.literal('spgemm'),
  setup: z.boolean().default(false),
});
export const PluginManifest = z.discriminatedUnion('op', [SpmmManifest, SpgemmManifest]);
export type SpmmManifest = z.infer<typeof SpmmManifest>;
export type SpgemmManifest = z.infer<typeof SpgemmManifest>;
export type PluginManifest = z.infer<typeof PluginManifest>;

const BLOCK = /R"spbench\(([\s\S]*?)\)spbench"/g;

/** Line number (1-based) of a character offset. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** Parses the manifest out of a plugin's source text; `file` names it in every message. */
export function parseManifest(source: string, file: string): PluginManifest {
  const blocks = [...source.matchAll(BLOCK)];
  if (blocks.length === 0) {
    throw new UserError(`--kernel ${file}: no manifest found: declare one with SPBENCH_SPMM_PLUGIN(R"spbench({...})spbench", ...) or SPBENCH_SPGEMM_PLUGIN (see docs/plugins.md)`);
  }
  if (blocks.length > 1) throw new UserError(`--kernel ${file}: ${blocks.length} manifests found (lines ${blocks.map((b) => lineOf(source, b.index ?? 0)).join(', ')}); a plugin declares exactly one`);
  const at = `${file}:${lineOf(source, blocks[0].index ?? 0)}`;
  let json: unknown;
  try {
    json = JSON.parse(blocks[0][1]);
  } catch (e) {
    throw new UserError(`--kernel ${at}: the manifest is not valid JSON: ${(e as Error).message}`);
  }
  return checkManifest(json, at);
}

/** The manifest's fields (zod), or a usage error naming `at` (file:line) and the first bad field. */
function checkManifest(json: unknown, at: string): PluginManifest {
  const r = PluginManifest.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue.path.length ? `field "${issue.path.join('.')}"` : 'the manifest';
    const msg = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message;
    throw new UserError(`--kernel ${at}: ${where}: ${msg} (op "spmm" needs name, precisions, formats, layouts, mixed, graph; op "spgemm" needs name, precisions)`);
  }
  return r.data;
}

/**
 * The manifest of a Python plugin: the dict literal `MANIFEST = {...}` at the top level of the file,
 * read as JSON (Python's True/False accepted, a trailing comma too), so spbench knows the plugin
 * without importing it (and without torch). Python plugins are SpMM, CSR only (docs/plugins.md).
 */
export function parsePythonManifest(source: string, file: string): PluginManifest {
  const at = /^MANIFEST\s*=\s*\{/m.exec(source);
  if (!at) throw new UserError(`--kernel ${file}: no manifest found: define MANIFEST = {...} at the top level (see docs/plugins.md, "Python plugins")`);
  const open = source.indexOf('{', at.index);
  let depth = 0;
  let end = -1;
  let inStr = false;
  for (let i = open; i < source.length && end < 0; i++) {
    const ch = source[i];
    if (inStr) {
      if (ch === '\\') i++;
      else if (ch === '"') inStr = false;
    } else if (ch === '"') inStr = true;
    else if (ch === '#') i = source.indexOf('\n', i) < 0 ? source.length : source.indexOf('\n', i); // a comment
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) end = i;
  }
  const where = `${file}:${lineOf(source, at.index)}`;
  if (end < 0) throw new UserError(`--kernel ${where}: the MANIFEST dict is not closed`);
  // True/False outside strings, trailing commas: the small step from a Python literal to JSON
  const json = source
    .slice(open, end + 1)
    .replace(/("(?:[^"\\]|\\.)*")|\bTrue\b|\bFalse\b|#[^\n]*/g, (m, str: string | undefined) => str ?? (m === 'True' ? 'true' : m === 'False' ? 'false' : ''))
    .replace(/,(\s*[}\]])/g, '$1');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (e) {
    throw new UserError(`--kernel ${where}: the MANIFEST is not JSON-like (double-quoted strings, lists, True/False): ${(e as Error).message}`);
  }
  const m = checkManifest(parsed, where);
  if (m.op !== 'spmm') throw new UserError(`--kernel ${where}: Python plugins are SpMM only ("op": "spmm"); write an SpGEMM plugin as a .cu file`);
  if (m.formats.some((f) => f !== 'csr')) throw new UserError(`--kernel ${where}: field "formats": Python plugins get the batch as CSR only: declare ["csr"]`);
  return m;
}

/** Reads a plugin file's manifest: a .cu plugin's R"spbench(...)spbench" block or a .py plugin's MANIFEST dict. */
export function readManifest(file: string): PluginManifest {
  const ext = extname(file).toLowerCase();
  if (ext !== '.cu' && ext !== '.py') throw new UserError(`--kernel ${file}: expected a CUDA plugin (.cu file) or a Python plugin (.py file), got '${ext || 'no extension'}'`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`--kernel ${file}: cannot read it: ${(e as Error).message}`);
  }
  return ext === '.py' ? parsePythonManifest(text, file) : parseManifest(text, file);
}

/** A Python plugin (run by cuda/python/pyrun.py) rather than a CUDA one (built with its runner). */
export const isPythonPlugin = (file: string): boolean => extname(file).toLowerCase() === '.py';

/** The methods an SpMM plugin adds: one per format, NAME alone when it has one format. */
export function spmmMethods(m: SpmmManifest): Array<{ method: string; format: 'csr' | 'coo' }> {
  const formats = [...new Set(m.formats)];
  return formats.map((format) => ({ method: formats.length === 1 ? m.name : `${m.name}-${format}`, format }));
}

/** The method names a plugin adds to a result file. */
export function pluginMethods(m: PluginManifest): string[] {
  return m.op === 'spmm' ? spmmMethods(m).map((x) => x.method) : [m.name];
}
