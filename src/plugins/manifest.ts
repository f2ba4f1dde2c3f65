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
  const r = PluginManifest.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue.path.length ? `field "${issue.path.join('.')}"` : 'the manifest';
    const msg = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message;
    throw new UserError(`--kernel ${at}: ${where}: ${msg} (op "spmm" needs name, precisions, formats, layouts, mixed, graph; op "spgemm" needs name, precisions)`);
  }
  return r.data;
}

/** Reads a plugin file's manifest. Python plugins are pending (no Python runner yet): a usage error saying so. */
export function readManifest(file: string): PluginManifest {
  const ext = extname(file).toLowerCase();
  if (ext === '.py') {
    throw new UserError(`--kernel ${file}: Python plugins are not runnable yet (the Python runner arrives with the SpMM framework peers); write the kernel as a .cu plugin (docs/plugins.md)`);
  }
  if (ext !== '.cu') throw new UserError(`--kernel ${file}: expected a CUDA plugin (.cu file), got '${ext || 'no extension'}'`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`--kernel ${file}: cannot read it: ${(e as Error).message}`);
  }
  return parseManifest(text, file);
}

/** The methods an SpMM plugin adds: one per format, NAME alone when it has one format. */
export function spmmMethods(m: SpmmManifest): Array<{ method: string; format: 'csr' | 'coo' }> {
  const formats = [...new Set(m.formats)];
  return formats.map((format) => ({ method: formats.length === 1 ? m.name : `${m.name}-${format}`, format }));
}

/** The method names a plugin adds to a result file. */
export function pluginMethods(m: PluginManifest): string[] {
  return m.op === 'spmm' ? spmmMethods(m).map((x) => x.method) : [m.name];
}
