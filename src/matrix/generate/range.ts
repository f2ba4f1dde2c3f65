// Integer ranges of command-line options: "64" (a fixed value) or "32:256" (drawn per matrix).
import { UserError } from '../../util/errors.js';

export interface Range {
  min: number;
  max: number;
}

/** Parses "N" or "MIN:MAX" (positive integers, MIN <= MAX); errors name the option `what`. */
export function parseRange(text: string, what: string): Range {
  const parts = text.trim().split(':');
  const bad = (why: string): never => {
    throw new UserError(`${what} must be a positive integer or MIN:MAX range, got "${text}" (${why})`);
  };
  if (parts.length > 2) bad('more than one ":"');
  const nums = parts.map((p) => {
    const t = p.trim();
    if (!/^[+-]?\d+$/.test(t)) bad(`"${t}" is not an integer`);
    const v = Number(t);
    if (!Number.isSafeInteger(v)) bad(`"${t}" is too large`);
    if (v <= 0) bad(`${v} is not positive`);
    return v;
  });
  const min = nums[0];
  const max = nums.length === 2 ? nums[1] : min;
  if (min > max) bad(`min ${min} is greater than max ${max}`);
  return { min, max };
}
