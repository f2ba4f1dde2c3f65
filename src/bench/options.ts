// Parsers for command-line option values. Each failure is a UserError that names the option and
// quotes the bad value, e.g. "--nb: '0' is not a positive integer".
import { UserError } from '../util/errors.js';

function bad(opt: string, value: string, what: string): UserError {
  return new UserError(`${opt}: '${value}' is ${what}`);
}

/** Comma-separated items, trimmed; empty items ("16,,32", "") are an error. */
export function splitList(text: string, opt: string): string[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw bad(opt, text, 'not a comma-separated list (empty item)');
  return items;
}

function intOf(text: string, opt: string, min: number, what: string): number {
  const t = text.trim();
  if (!/^[0-9]+$/.test(t)) throw bad(opt, text, what);
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min) throw bad(opt, text, what);
  return n;
}

export function positiveInt(text: string, opt: string): number {
  return intOf(text, opt, 1, 'not a positive integer');
}

export function nonNegativeInt(text: string, opt: string): number {
  return intOf(text, opt, 0, 'not a non-negative integer');
}

export function oneOf<T extends string>(text: string, opt: string, allowed: readonly T[]): T {
  const t = text.trim();
  if (!(allowed as readonly string[]).includes(t)) throw bad(opt, text, `not one of ${allowed.join(', ')}`);
  return t as T;
}

/** "all" or a list of method names (the native executable rejects names it does not know). */
export function methodList(text: string, opt: string): string[] | 'all' {
  if (text.trim() === 'all') return 'all';
  const names = unique(splitList(text, opt));
  for (const n of names) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(n)) throw bad(opt, n, 'not a method name (letters, digits, _ . + -)');
  }
  return names;
}

/** A positive number (decimals allowed) at most `max`: --max-noise, --min-time, --timeout. */
export function positiveNumber(text: string, opt: string, max: number, allowZero = false): number {
  const t = text.trim();
  const n = /^[0-9]+(\.[0-9]+)?$|^\.[0-9]+$/.test(t) ? Number(t) : NaN;
  if (!(allowZero ? n >= 0 : n > 0) || n > max) throw bad(opt, text, `not a number in ${allowZero ? '[0' : '(0'}, ${max}]`);
  return n;
}

/** --samples: a positive integer or "auto" (sample until the noise is low enough, cuda/common/sampling.hpp). */
export function samplesValue(text: string, opt: string): number | 'auto' {
  if (text.trim() === 'auto') return 'auto';
  const t = text.trim();
  if (!/^[0-9]+$/.test(t) || !(Number(t) >= 1) || Number(t) > 100000) throw bad(opt, text, 'not auto or an integer in 1..100000');
  return Number(t);
}

/** --cache: hot, cold or both (hot and cold, two results per method). */
export function cacheList(text: string, opt: string): Array<'hot' | 'cold'> {
  const items = splitList(text, opt).flatMap((s) => (s === 'both' ? ['hot', 'cold'] : [s]));
  const out = unique(items.map((s) => oneOf(s, opt, ['hot', 'cold'] as const)));
  return (['hot', 'cold'] as const).filter((c) => out.includes(c));
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
