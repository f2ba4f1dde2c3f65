// `compare` across device kinds: refused unless `--across-devices`, and then the verdict is said to
// be about the devices, not the code (same exit codes).
import type { ResultFile } from '../results/schema.js';
import { UserError } from '../util/errors.js';
import { deviceKind } from './merge-parts.js';

/** null when both files come from one device kind; else the sentence that heads the comparison. */
export function acrossDevices(base: ResultFile, next: ResultFile, allowed: boolean, names: { base: string; new: string }): string | null {
  const a = deviceKind(base);
  const b = deviceKind(next);
  if (a === b) return null;
  if (!allowed) throw new UserError(`${names.base} (${a}) and ${names.new} (${b}) come from different device kinds, so a slowdown would be the device's, not the code's; give --across-devices to compare the devices`);
  return `comparing devices, not code: ${names.base} ran on ${a}, ${names.new} on ${b}; a "regression" here means the new device is slower on that case`;
}
