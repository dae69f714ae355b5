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
