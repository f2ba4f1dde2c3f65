// Why a plugin does not apply to a case, from its manifest (null: it applies). The sentence becomes
// the method's not_applicable reason in the result file.
import type { SpgemmManifest, SpmmManifest } from './manifest.js';
import type { Precision, SpgemmPrecision } from '../kinds.js';

export interface SpmmCaseTraits {
  backend: 'cpu' | 'cuda';
  precision: Precision;
  layout: 'row' | 'col';
  mode: 'kernel' | 'e2e' | 'graph';
  mixed: boolean; // matrices of the batch differ in rows, columns or nnz
}

export const CPU_BACKEND_REASON = 'the CPU backend cannot run CUDA plugins';

export function spmmNotApplicable(m: SpmmManifest, c: SpmmCaseTraits, backendReason?: string): string | null {
  if (c.backend === 'cpu') return backendReason ? `${CPU_BACKEND_REASON} (backend cpu: ${backendReason})` : CPU_BACKEND_REASON;
  if (!(m.precisions as readonly string[]).includes(c.precision)) return `the plugin declares precisions ${m.precisions.join(', ')}; this case is ${c.precision}`;
  if (!m.layouts.includes(c.layout)) return `the plugin declares layouts ${m.layouts.join(', ')}; this case is ${c.layout}-major`;
  if (c.mixed && !m.mixed) return 'the plugin does not declare mixed batches ("mixed": false); this batch has matrices of different sizes or nnz';
  if (c.mode === 'graph' && !m.graph) return 'the plugin does not declare graph capture ("graph": false), so graph mode cannot time it';
  return null;
}

export function spgemmNotApplicable(m: SpgemmManifest, c: { backend: 'cpu' | 'cuda'; precision: SpgemmPrecision }, backendReason?: string): string | null {
  if (c.backend === 'cpu') return backendReason ? `${CPU_BACKEND_REASON} (backend cpu: ${backendReason})` : CPU_BACKEND_REASON;
  if (!m.precisions.includes(c.precision)) return `the plugin declares precisions ${m.precisions.join(', ')}; this case is ${c.precision}`;
  return null;
}
