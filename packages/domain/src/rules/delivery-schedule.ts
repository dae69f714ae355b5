import { SCHEDULE_DAYS, formatTimeOfDay, minutesOfDay, type DeliverySchedule } from '../entities/delivery-schedule';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A range of local minutes after the midnight that starts its day; `end` past 1440 runs into the next day. */
export interface OpenRange {
  start: number;
  end: number;
}

/** Open ranges by local week day, Sunday first (as `Date#getUTCDay` numbers them). */
export type OpenHours = OpenRange[][];

const JS_DAY: Record<(typeof SCHEDULE_DAYS)[number], number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 };

/**
 * The hours a schedule keeps open, or null when it holds nothing back: disabled, without a week,
 * or with no open range on any day (an "empty week"). An empty week delivers as if there were no
 * schedule, as the interface's own service computes its next available time: "never" would hold
 * every email, SMS, chat and push message of the subscriber for as long as Herald holds a delay,
 * silently, because of a week a person switched off day by day in the Inbox.
 * A range is [start, end): open from its start minute up to, not including, its end; an end of
 * 12:00 AM is the midnight that ends the day, and an end before the start runs past midnight into
 * the next day (10:00 PM-06:00 AM on Monday is Monday 22:00 to Tuesday 06:00).
 */
export function openHoursOf(schedule: DeliverySchedule | null | undefined): OpenHours | null {
  if (!schedule?.isEnabled || !schedule.weeklySchedule) return null;
  const hours: OpenHours = [[], [], [], [], [], [], []];
  for (const day of SCHEDULE_DAYS) {
    const config = schedule.weeklySchedule[day];
    if (!config?.isEnabled) continue;
    for (const { start, end } of config.hours ?? []) {
      const from = minutesOfDay(start);
      let to = minutesOfDay(end);
      if (from === null || to === null) continue;
      if (to === 0) to = 1440;
      if (to < from) to += 1440;
      if (to > from) hours[JS_DAY[day]].push({ start: from, end: to });
    }
  }
  return hours.some((ranges) => ranges.length) ? hours : null;
}

const formats = new Map<string, Intl.DateTimeFormat | null>();

/** One formatter per timezone for the life of the process (they cost tens of microseconds to build); null when unknown. */
function formatOf(timeZone: string): Intl.DateTimeFormat | null {
  let format = formats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      format = null;
    }
    formats.set(timeZone, format);
  }
  return format;
}

/** The subscriber's timezone when the runtime knows it, else UTC. */
export function scheduleZone(timezone: string | null | undefined): string {
  return timezone && formatOf(timezone) ? timezone : 'UTC';
}

/** The local wall time of an instant, as the UTC instant with the same digits (ms since epoch, whole seconds). */
function wallOf(at: number, timeZone: string): number {
  const parts = formatOf(timeZone)!.formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
}

const offsetAt = (at: number, timeZone: string) => wallOf(at, timeZone) - (at - (((at % 1000) + 1000) % 1000));

/**
 * The instants whose local wall time is `wall` (a UTC-digits instant): one, two when a clock set
 * back shows it twice, and in a gap a clock set forward skipped, the instant of the jump (the first
 * whose wall time is past it).
 */
function instantsOf(wall: number, timeZone: string): number[] {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const found = [...new Set([before, after])].map((offset) => wall - offset).filter((t) => wallOf(t, timeZone) === wall);
  if (found.length) return found.sort((a, b) => a - b);
  // In the gap: search the jump between the two readings, to the millisecond.
  let lo = Math.min(wall - before, wall - after);
  let hi = Math.max(wall - before, wall - after);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid, timeZone) === after) hi = mid;
    else lo = mid;
  }
  return [hi];
}

/** Whether the schedule is open at `at` in `timezone`: by the local wall clock, so ranges follow daylight-saving changes. */
export function isWithinHours(hours: OpenHours, at: Date, timezone: string | null | undefined): boolean {
  const timeZone = scheduleZone(timezone);
  const wall = wallOf(at.getTime(), timeZone) + (at.getTime() % 1000);
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  const minute = (wall - midnight) / MINUTE_MS;
  const weekDay = new Date(midnight).getUTCDay();
  if (hours[weekDay].some((r) => r.start <= minute && minute < r.end)) return true;
  return hours[(weekDay + 6) % 7].some((r) => r.end > 1440 && minute < r.end - 1440);
}

/**
 * The first instant at or after `from` when the schedule is open: `from` itself when it is open now,
 * else the start of the next range (a start a clock change skipped opens at the change).
 */
export function nextOpening(hours: OpenHours, from: Date, timezone: string | null | undefined): Date {
  if (isWithinHours(hours, from, timezone)) return from;
  const timeZone = scheduleZone(timezone);
  const wall = wallOf(from.getTime(), timeZone);
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  const starts: number[] = [];
  // Eight days: a range that started earlier today comes round again in seven.
  for (let k = 0; k <= 7; k++) {
    const day = midnight + k * DAY_MS;
    for (const range of hours[new Date(day).getUTCDay()]) starts.push(...instantsOf(day + range.start * MINUTE_MS, timeZone));
  }
  const next = starts
    .filter((t) => t > from.getTime())
    .sort((a, b) => a - b)
    .find((t) => isWithinHours(hours, new Date(t), timeZone));
  // A week with open hours always opens within eight days; `from` keeps a broken zone database from holding a message.
  return next === undefined ? from : new Date(next);
}

/** An instant as the subscriber reads it, for execution details: "Wed 08:00 AM Asia/Tokyo". */
export function localTimeLabel(at: Date, timezone: string | null | undefined): string {
  const timeZone = scheduleZone(timezone);
  const wall = new Date(wallOf(at.getTime(), timeZone));
  const day = wall.toUTCString().slice(0, 3);
  const minutes = wall.getUTCHours() * 60 + wall.getUTCMinutes();
  return `${day} ${formatTimeOfDay(minutes)} ${timeZone}`;
}
