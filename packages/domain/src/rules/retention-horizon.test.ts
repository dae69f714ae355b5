import { describe, expect, it } from 'vitest';
import { addDays, dayLabel, parseRetentionDays, purgeHorizon, utcDay } from './retention-horizon';

describe('purgeHorizon', () => {
  it.each([
    // now, days, first day kept: every earlier day ended at least `days` days before now
    ['2026-11-28T09:00:00Z', 90, '2026-08-30'],
    ['2026-11-28T00:00:00Z', 90, '2026-08-30'],
    ['2026-11-28T23:59:59.999Z', 90, '2026-08-30'],
    ['2026-11-28T09:00:00Z', 1, '2026-11-27'],
    ['2026-03-01T12:00:00Z', 1, '2026-02-28'],
  ])('at %s keeping %i days, purges the days before %s', (now, days, first) => {
    const horizon = purgeHorizon(new Date(now), days);
    expect(dayLabel(horizon)).toBe(first);
    // The last purged day ended no later than `days` days before now.
    expect(addDays(horizon, 0).getTime()).toBeLessThanOrEqual(new Date(now).getTime() - days * 86_400_000);
  });
});

describe('utcDay', () => {
  it('is midnight UTC of the day the instant falls in', () => {
    expect(utcDay(new Date('2026-11-28T23:59:59.999Z')).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    expect(utcDay(new Date('2026-11-28T00:00:00.000Z')).toISOString()).toBe('2026-11-28T00:00:00.000Z');
  });
});

describe('parseRetentionDays', () => {
  it.each([[1, 1], [90, 90], [3650, 3650], ['30', 30], [' 7 ', 7]])('takes %j as %i days', (input, days) => {
    expect(parseRetentionDays(input)).toEqual({ days });
  });

  it.each([0, -1, 3651, 1.5, '1.5', '', 'ninety', null, undefined, NaN, true])('refuses %j, naming the field', (input) => {
    const result = parseRetentionDays(input, 'retention-days');
    expect(result).toEqual({ errors: { 'retention-days': { messages: ['must be a whole number of days from 1 to 3650'], value: input } } });
  });
});
