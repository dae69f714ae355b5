import { Cron } from 'croner';

const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** The `timed` fields of the spec's DigestMetadata (also accepted by timed delays). */
export interface TimedSchedule {
  atTime?: string;
  weekDays?: string[];
  monthDays?: number[];
  ordinal?: string;
  ordinalValue?: string;
  monthlyType?: 'each' | 'on';
  cronExpression?: string;
  untilDate?: string;
}

/** A timezone the runtime knows, else UTC (a subscriber's timezone is free text). */
export function zoneOrUtc(timezone: string | null | undefined): string {
  if (!timezone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return timezone;
  } catch {
    return 'UTC';
  }
}

interface LocalDay {
  year: number;
  month: number;
  day: number;
  weekDay: number;
}

function localDay(at: Date, timeZone: string): LocalDay {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'long' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekDay: WEEK_DAYS.indexOf(get('weekday').toLowerCase() as (typeof WEEK_DAYS)[number]),
  };
}

function matchesOrdinal(d: LocalDay, ordinal: string, value: string): boolean {
  const daysInMonth = new Date(Date.UTC(d.year, d.month, 0)).getUTCDate();
  const firstWeekDay = new Date(Date.UTC(d.year, d.month - 1, 1)).getUTCDay();
  const fits = (day: number) => {
    const w = (firstWeekDay + day - 1) % 7;
    if (value === 'day') return true;
    if (value === 'weekday') return w >= 1 && w <= 5;
    if (value === 'weekend') return w === 0 || w === 6;
    return WEEK_DAYS[w] === value;
  };
  const candidates = Array.from({ length: daysInMonth }, (_, i) => i + 1).filter(fits);
  const chosen = ordinal === 'last' ? candidates.at(-1) : candidates[Number(ordinal) - 1];
  return chosen === d.day;
}

/** Whether a local calendar day belongs to a `timed` schedule (week days, month days or an ordinal day). */
function dayMatches(d: LocalDay, timed: TimedSchedule): boolean {
  if (timed.monthlyType === 'on' && timed.ordinal && timed.ordinalValue) return matchesOrdinal(d, timed.ordinal, timed.ordinalValue);
  if (timed.monthDays?.length) return timed.monthDays.includes(d.day);
  if (timed.weekDays?.length) return timed.weekDays.includes(WEEK_DAYS[d.weekDay]);
  return true;
}

/**
 * The first tick strictly after `from` of a cron expression or of `timed` fields (atTime on the
 * chosen days, default midnight), in `timezone` (UTC when absent or unknown). Null when there is
 * none (past `untilDate`, or no matching day within two years).
 */
export function nextTick(schedule: { cron?: string; timed?: TimedSchedule }, from: Date, timezone?: string | null): Date | null {
  const timeZone = zoneOrUtc(timezone);
  const timed = schedule.timed ?? {};
  const expression = schedule.cron || timed.cronExpression;
  const until = timed.untilDate ? new Date(timed.untilDate) : null;
  const within = (at: Date | null) => (at && (!until || at <= until) ? at : null);
  if (expression) return within(new Cron(expression, { timezone: timeZone, paused: true }).nextRun(from));
  const [hour, minute] = (timed.atTime ?? '00:00').split(':').map(Number);
  const daily = new Cron(`${minute} ${hour} * * *`, { timezone: timeZone, paused: true });
  let at = daily.nextRun(from);
  for (let i = 0; at && i < 800; i++, at = daily.nextRun(at)) {
    if (dayMatches(localDay(at, timeZone), timed)) return within(at);
  }
  return null;
}

/** Whether croner accepts the expression (the same parser that computes the ticks). */
export function cronProblem(expression: string): string | null {
  try {
    new Cron(expression, { paused: true });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
