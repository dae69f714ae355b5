import { RETENTION_DAYS_RANGE } from '../entities/retention';
import type { FieldErrors } from '../errors';

const DAY_MS = 86_400_000;

/** Midnight UTC of the day `at` falls in. */
export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function addDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

/** `2026-11-28` for a day (its midnight UTC). */
export function dayLabel(day: Date): string {
  return day.toISOString().slice(0, 10);
}

/**
 * The first UTC day NOT wholly older than `days`: every row of an earlier day was created more than
 * `days` days before `now`. The purge takes whole days, so a row is kept at least `days` days and
 * removed within the day after.
 */
export function purgeHorizon(now: Date, days: number): Date {
  return utcDay(new Date(now.getTime() - days * DAY_MS));
}

/** A whole number of days within RETENTION_DAYS_RANGE, or the error naming `field`. */
export function parseRetentionDays(value: unknown, field = 'retentionDays'): { days: number } | { errors: FieldErrors } {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  const { min, max } = RETENTION_DAYS_RANGE;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    return { errors: { [field]: { messages: [`must be a whole number of days from ${min} to ${max}`], value } } };
  }
  return { days: n };
}
