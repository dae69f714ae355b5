export type DurationUnit = 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months';

const MS: Record<Exclude<DurationUnit, 'months'>, number> = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

/** `from` plus amount x unit; months are calendar months (Jan 31 + 1 month = Feb 28/29). */
export function addDuration(from: Date, amount: number, unit: DurationUnit): Date {
  if (unit !== 'months') return new Date(from.getTime() + amount * MS[unit]);
  const d = new Date(from);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + amount);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The longest delay, digest window or throttle window a workflow may hold: one year. */
export const MAX_DELAY_DAYS = 365;
const MAX_DELAY_MS = MAX_DELAY_DAYS * MS.days;

/** Whether amount x unit is longer than MAX_DELAY_DAYS (months counted as 31 days). */
export function exceedsMaxDelay(amount: number, unit: DurationUnit): boolean {
  return amount * (unit === 'months' ? 31 * MS.days : MS[unit]) > MAX_DELAY_MS;
}

/** Whether `at` is further than MAX_DELAY_DAYS after `from`. */
export function beyondMaxDelay(from: Date, at: Date): boolean {
  return at.getTime() - from.getTime() > MAX_DELAY_MS;
}

/** How late something ran after it was due, for execution details: "12 ms", "4.2 s". */
export function lateness(dueAt: Date, ranAt: Date): string {
  const ms = Math.max(0, ranAt.getTime() - dueAt.getTime());
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
