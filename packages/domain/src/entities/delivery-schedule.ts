import { DomainError, type FieldErrors } from '../errors';

export const SCHEDULE_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number];

/** Local times of day in the interface's 12-hour form, "09:00 AM". */
export interface TimeRange {
  start: string;
  end: string;
}

export interface DaySchedule {
  isEnabled: boolean;
  hours?: TimeRange[];
}

/**
 * When a subscriber may be reached on external channels (email, SMS, chat, push), in their own
 * timezone. `isEnabled: false` or no weekly schedule: at any time.
 */
export interface DeliverySchedule {
  isEnabled: boolean;
  weeklySchedule?: Partial<Record<ScheduleDay, DaySchedule>>;
}

/** More ranges than a day could use in half-hour steps is a mistake, not a schedule. */
export const MAX_RANGES_PER_DAY = 48;

// "9:00 AM", "09:00 am", "09:00AM": the forms the interface accepts.
const TIME = /^(0?[1-9]|1[0-2]):([0-5]\d)\s?(AM|PM)$/i;

/** Minutes after local midnight of a 12-hour time ("12:00 AM" = 0); null when malformed. */
export function minutesOfDay(time: string): number | null {
  const match = TIME.exec(time.trim());
  if (!match) return null;
  const hour = Number(match[1]) % 12;
  return (match[3].toUpperCase() === 'PM' ? hour + 12 : hour) * 60 + Number(match[2]);
}

/** The canonical spelling of a time the interface's clients show: two-digit hour, a space, AM/PM. */
export function formatTimeOfDay(minutes: number): string {
  const hour = Math.floor(minutes / 60) % 24;
  const display = hour % 12 === 0 ? 12 : hour % 12;
  return `${String(display).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownKeys(value: Record<string, unknown>, known: readonly string[], at: string, errors: FieldErrors): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) errors[`${at}.${key}`] = { messages: ['is not a known field'], value: value[key] };
}

function range(raw: unknown, at: string, errors: FieldErrors): TimeRange | null {
  if (!isObject(raw)) {
    errors[at] = { messages: ['must be an object with start and end'], value: raw };
    return null;
  }
  unknownKeys(raw, ['start', 'end'], at, errors);
  const times = (['start', 'end'] as const).map((key) => {
    const value = raw[key];
    const minutes = typeof value === 'string' ? minutesOfDay(value) : null;
    if (minutes === null) errors[`${at}.${key}`] = { messages: ['must be a time of day as hh:mm AM or PM, e.g. 09:00 AM'], value };
    return minutes;
  });
  const [start, end] = times;
  if (start === null || end === null) return null;
  // 12:00 AM as an end is midnight at the end of the day, so 12:00 AM-12:00 AM is the whole day.
  if (start === end && start !== 0) {
    errors[`${at}.end`] = { messages: ['must differ from start: the range would be empty (12:00 AM to 12:00 AM is the whole day)'], value: raw.end };
    return null;
  }
  return { start: formatTimeOfDay(start), end: formatTimeOfDay(end) };
}

function day(raw: unknown, at: string, errors: FieldErrors): DaySchedule | null {
  if (!isObject(raw)) {
    errors[at] = { messages: ['must be an object with isEnabled and hours'], value: raw };
    return null;
  }
  unknownKeys(raw, ['isEnabled', 'hours'], at, errors);
  if (typeof raw.isEnabled !== 'boolean') errors[`${at}.isEnabled`] = { messages: ['must be a boolean'], value: raw.isEnabled };
  if (raw.hours === undefined) return { isEnabled: raw.isEnabled === true };
  if (!Array.isArray(raw.hours)) {
    errors[`${at}.hours`] = { messages: ['must be a list of time ranges'], value: raw.hours };
    return null;
  }
  if (raw.hours.length > MAX_RANGES_PER_DAY) errors[`${at}.hours`] = { messages: [`at most ${MAX_RANGES_PER_DAY} ranges a day`], value: raw.hours.length };
  const hours = raw.hours.map((r, i) => range(r, `${at}.hours[${i}]`, errors)).filter((r): r is TimeRange => r !== null);
  return { isEnabled: raw.isEnabled === true, hours };
}

/**
 * Checks a schedule as a client sends it and returns it with times in the canonical spelling.
 * Throws a 422 naming every bad field (`schedule.weeklySchedule.monday.hours[0].end`): malformed
 * times, an empty range, unknown days or keys, and (as the interface does) an enabled schedule with
 * an empty week object. Days all switched off are accepted: see `openHoursOf`.
 */
export function validateDeliverySchedule(raw: unknown, field = 'schedule'): DeliverySchedule {
  const errors: FieldErrors = {};
  if (!isObject(raw)) throw DomainError.field(field, 'must be an object with isEnabled and weeklySchedule', raw);
  unknownKeys(raw, ['isEnabled', 'weeklySchedule'], field, errors);
  if (typeof raw.isEnabled !== 'boolean') errors[`${field}.isEnabled`] = { messages: ['must be a boolean'], value: raw.isEnabled };
  let weeklySchedule: DeliverySchedule['weeklySchedule'];
  const week = raw.weeklySchedule;
  const at = `${field}.weeklySchedule`;
  if (week !== undefined && week !== null) {
    if (!isObject(week)) errors[at] = { messages: ['must be an object of days'], value: week };
    else {
      if (raw.isEnabled === true && Object.keys(week).length === 0) errors[at] = { messages: ['must configure at least one day when the schedule is enabled'], value: week };
      for (const key of Object.keys(week)) {
        if (!(SCHEDULE_DAYS as readonly string[]).includes(key)) errors[`${at}.${key}`] = { messages: [`is not a day: use ${SCHEDULE_DAYS.join(', ')}`], value: week[key] };
      }
      weeklySchedule = {};
      for (const name of SCHEDULE_DAYS) {
        if (week[name] === undefined) continue;
        const parsed = day(week[name], `${at}.${name}`, errors);
        if (parsed) weeklySchedule[name] = parsed;
      }
    }
  }
  if (Object.keys(errors).length) throw DomainError.validation(errors);
  return { isEnabled: raw.isEnabled as boolean, ...(weeklySchedule ? { weeklySchedule } : {}) };
}
