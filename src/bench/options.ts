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

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
