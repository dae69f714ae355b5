import { describe, expect, it } from 'vitest';
import { validateDeliverySchedule, type DeliverySchedule } from '../entities/delivery-schedule';
import { DomainError } from '../errors';
import { isWithinHours, nextOpening, openHoursOf } from './delivery-schedule';

const days = (config: Record<string, Array<[string, string]> | false>): DeliverySchedule => ({
  isEnabled: true,
  weeklySchedule: Object.fromEntries(
    Object.entries(config).map(([day, hours]) => [day, hours ? { isEnabled: true, hours: hours.map(([start, end]) => ({ start, end })) } : { isEnabled: false }]),
  ),
});
const EVERY_DAY = (start: string, end: string) =>
  days(Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [[start, end]]])));

describe('openHoursOf: what holds messages back', () => {
  it.each<[string, DeliverySchedule | null]>([
    ['no schedule', null],
    ['a disabled schedule', { isEnabled: false, weeklySchedule: EVERY_DAY('09:00 AM', '05:00 PM').weeklySchedule }],
    ['an enabled schedule without a week', { isEnabled: true }],
    ['an empty week: every day switched off', days({ monday: false, tuesday: false })],
    ['an empty week: days on without hours', { isEnabled: true, weeklySchedule: { monday: { isEnabled: true }, friday: { isEnabled: true, hours: [] } } }],
  ])('%s holds nothing back (delivered as if there were no schedule)', (_name, schedule) => {
    expect(openHoursOf(schedule)).toBeNull();
  });
});

describe('isWithinHours and nextOpening', () => {
  it.each<[string, DeliverySchedule, string | null, string, boolean, string]>([
    // name, schedule, timezone, now, open now, next opening
    ['Tokyo at 23:30 waits for 08:00 the next morning', EVERY_DAY('08:00 AM', '10:00 PM'), 'Asia/Tokyo', '2026-03-10T14:30:00.000Z', false, '2026-03-10T23:00:00.000Z'],
    ['Tokyo at 08:00 exactly is open', EVERY_DAY('08:00 AM', '10:00 PM'), 'Asia/Tokyo', '2026-03-10T23:00:00.000Z', true, '2026-03-10T23:00:00.000Z'],
    ['the end minute is closed ([start, end))', EVERY_DAY('08:00 AM', '10:00 PM'), 'Asia/Tokyo', '2026-03-10T13:00:00.000Z', false, '2026-03-10T23:00:00.000Z'],
    ['a range crossing midnight is open after midnight', days({ monday: [['10:00 PM', '06:00 AM']] }), 'UTC', '2026-03-03T05:59:59.000Z', true, '2026-03-03T05:59:59.000Z'],
    ['a range crossing midnight closes at its end the next day', days({ monday: [['10:00 PM', '06:00 AM']] }), 'UTC', '2026-03-03T06:00:00.000Z', false, '2026-03-09T22:00:00.000Z'],
    ['a range crossing midnight opens on its own day', days({ monday: [['10:00 PM', '06:00 AM']] }), 'UTC', '2026-03-02T21:59:00.000Z', false, '2026-03-02T22:00:00.000Z'],
    ['an end of 12:00 AM runs to midnight', days({ monday: [['06:00 PM', '12:00 AM']] }), 'UTC', '2026-03-02T23:59:59.000Z', true, '2026-03-02T23:59:59.000Z'],
    ['12:00 AM to 12:00 AM is the whole day', days({ tuesday: [['12:00 AM', '12:00 AM']] }), 'UTC', '2026-03-03T00:00:00.000Z', true, '2026-03-03T00:00:00.000Z'],
    ['the next enabled day, a week round', days({ friday: [['09:00 AM', '05:00 PM']], saturday: false }), 'UTC', '2026-03-07T10:00:00.000Z', false, '2026-03-13T09:00:00.000Z'],
    ['the second range of the day', days({ monday: [['09:00 AM', '12:00 PM'], ['02:00 PM', '05:00 PM']] }), 'UTC', '2026-03-02T12:30:00.000Z', false, '2026-03-02T14:00:00.000Z'],
    ['an unknown timezone is UTC', EVERY_DAY('09:00 AM', '05:00 PM'), 'Mars/Olympus', '2026-03-02T08:00:00.000Z', false, '2026-03-02T09:00:00.000Z'],
    // Daylight saving: ranges follow the wall clock.
    ['New York, clocks forward: a start the jump skipped opens at the jump', days({ sunday: [['02:30 AM', '04:00 AM']] }), 'America/New_York', '2026-03-08T06:00:00.000Z', false, '2026-03-08T07:00:00.000Z'],
    ['New York, clocks back: 01:30 shown twice opens the second time too', days({ sunday: [['01:30 AM', '01:45 AM']] }), 'America/New_York', '2026-11-01T05:50:00.000Z', false, '2026-11-01T06:30:00.000Z'],
    ['New York, clocks back: first 01:30 opens first', days({ sunday: [['01:30 AM', '01:45 AM']] }), 'America/New_York', '2026-11-01T05:00:00.000Z', false, '2026-11-01T05:30:00.000Z'],
    ['Berlin, 09:00 before the change is 08:00 UTC', EVERY_DAY('09:00 AM', '05:00 PM'), 'Europe/Berlin', '2026-03-28T20:00:00.000Z', false, '2026-03-29T07:00:00.000Z'],
    ['Berlin, 09:00 the day before the change', EVERY_DAY('09:00 AM', '05:00 PM'), 'Europe/Berlin', '2026-03-27T20:00:00.000Z', false, '2026-03-28T08:00:00.000Z'],
  ])('%s', (_name, schedule, timezone, now, open, next) => {
    const hours = openHoursOf(schedule)!;
    expect(isWithinHours(hours, new Date(now), timezone)).toBe(open);
    expect(nextOpening(hours, new Date(now), timezone).toISOString()).toBe(next);
  });

  it('a range wholly in a skipped hour never opens that day: the next day it does', () => {
    const hours = openHoursOf(EVERY_DAY('02:00 AM', '02:30 AM'))!;
    expect(nextOpening(hours, new Date('2026-03-08T06:00:00.000Z'), 'America/New_York').toISOString()).toBe('2026-03-09T06:00:00.000Z');
  });
});

describe('validateDeliverySchedule', () => {
  it('keeps a valid schedule, times in the canonical spelling', () => {
    expect(validateDeliverySchedule({ isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '9:00 am', end: '05:30PM' }] }, sunday: { isEnabled: false } } })).toEqual({
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:30 PM' }] }, sunday: { isEnabled: false } },
    });
    expect(validateDeliverySchedule({ isEnabled: false })).toEqual({ isEnabled: false });
  });

  it.each<[string, unknown, string]>([
    ['a malformed start', { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '25:00', end: '05:00 PM' }] } } }, 'schedule.weeklySchedule.monday.hours[0].start'],
    ['a 24-hour end', { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '17:00' }] } } }, 'schedule.weeklySchedule.monday.hours[0].end'],
    ['a missing end', { isEnabled: true, weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '09:00 AM' }] } } }, 'schedule.weeklySchedule.friday.hours[0].end'],
    ['an empty range', { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '9:00 AM' }] } } }, 'schedule.weeklySchedule.monday.hours[0].end'],
    ['an unknown day', { isEnabled: true, weeklySchedule: { someday: { isEnabled: true } } }, 'schedule.weeklySchedule.someday'],
    ['an unknown key', { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [], all: true } } }, 'schedule.weeklySchedule.monday.all'],
    ['an enabled schedule with an empty week object', { isEnabled: true, weeklySchedule: {} }, 'schedule.weeklySchedule'],
    ['isEnabled not a boolean', { isEnabled: 'yes' }, 'schedule.isEnabled'],
    ['hours not a list', { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: '9-5' } } }, 'schedule.weeklySchedule.monday.hours'],
    ['not an object', 'always', 'schedule'],
  ])('refuses %s with a 422 naming the field', (_name, raw, field) => {
    try {
      validateDeliverySchedule(raw);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('VALIDATION_FAILED');
      expect(Object.keys((error as DomainError).fields!)).toContain(field);
    }
  });
});
