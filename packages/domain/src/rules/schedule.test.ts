import { describe, expect, it } from 'vitest';
import { nextTick } from './schedule';

describe('nextTick', () => {
  const cases: Array<[string, Parameters<typeof nextTick>[0], string, string | null, string | null]> = [
    ['every 5 seconds', { cron: '*/5 * * * * *' }, '2026-01-01T00:00:02Z', null, '2026-01-01T00:00:05.000Z'],
    ['weekdays at 9 in New York', { cron: '0 9 * * 1-5' }, '2026-01-02T20:00:00Z', 'America/New_York', '2026-01-05T14:00:00.000Z'],
    ['unknown timezone falls back to UTC', { cron: '0 9 * * *' }, '2026-01-02T20:00:00Z', 'Mars/Olympus', '2026-01-03T09:00:00.000Z'],
    ['timed cronExpression', { timed: { cronExpression: '30 8 * * *' } }, '2026-01-02T20:00:00Z', null, '2026-01-03T08:30:00.000Z'],
    ['atTime daily', { timed: { atTime: '18:00' } }, '2026-01-02T20:00:00Z', 'Europe/Berlin', '2026-01-03T17:00:00.000Z'],
    ['week days', { timed: { atTime: '09:00', weekDays: ['monday'] } }, '2026-01-02T20:00:00Z', null, '2026-01-05T09:00:00.000Z'],
    ['month days', { timed: { atTime: '09:00', monthlyType: 'each', monthDays: [15] } }, '2026-01-02T20:00:00Z', null, '2026-01-15T09:00:00.000Z'],
    ['second tuesday', { timed: { atTime: '10:00', monthlyType: 'on', ordinal: '2', ordinalValue: 'tuesday' } }, '2026-01-02T20:00:00Z', null, '2026-01-13T10:00:00.000Z'],
    ['last weekday', { timed: { atTime: '10:00', monthlyType: 'on', ordinal: 'last', ordinalValue: 'weekday' } }, '2026-01-02T20:00:00Z', null, '2026-01-30T10:00:00.000Z'],
    ['first weekend day', { timed: { monthlyType: 'on', ordinal: '1', ordinalValue: 'weekend' } }, '2026-01-05T00:00:00Z', null, '2026-02-01T00:00:00.000Z'],
    ['past untilDate', { timed: { atTime: '09:00', untilDate: '2026-01-02T00:00:00Z' } }, '2026-01-02T20:00:00Z', null, null],
  ];
  it.each(cases)('%s', (_name, schedule, from, timezone, expected) => {
    expect(nextTick(schedule, new Date(from), timezone)?.toISOString() ?? null).toBe(expected);
  });
});
