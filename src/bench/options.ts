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

/** "16,32,64" → [16, 32, 64]; repeated values are kept once, in first-seen order. */
export function positiveIntList(text: string, opt: string): number[] {
  return unique(splitList(text, opt).map((s) => positiveInt(s, opt)));
}

export function oneOf<T extends string>(text: string, opt: string, allowed: readonly T[]): T {
  const t = text.trim();
  if (!(allowed as readonly string[]).includes(t)) throw bad(opt, text, `not one of ${allowed.join(', ')}`);
  return t as T;
}

export function listOf<T extends string>(text: string, opt: string, allowed: readonly T[]): T[] {
  return unique(splitList(text, opt).map((s) => oneOf(s, opt, allowed)));
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

/**
 * "64", "32:256" or a list of them ("32,64,128", "32:256,64"); each item is checked by `check`
 * (the generators' parseRange) so that bad ranges fail before anything runs.
 */
export function rangeList(text: string, opt: string, check: (item: string, what: string) => unknown): string[] {
  const items = unique(splitList(text, opt));
  for (const item of items) check(item, opt);
  return items;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
