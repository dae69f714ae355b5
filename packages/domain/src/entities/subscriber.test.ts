import { describe, expect, it } from 'vitest';
import { validateSubscriberAttributes } from './subscriber';

describe('validateSubscriberAttributes', () => {
  it.each([
    ['email', 'ada@example.com', true],
    ['email', 'not-an-email', false],
    ['phone', '+14155550123', true],
    ['phone', '4155550123', false],
    ['phone', '+0123', false],
    ['locale', 'en-US', true],
    ['locale', 'not a locale!', false],
    ['timezone', 'Europe/Berlin', true],
    ['timezone', 'UTC', true],
    ['timezone', 'Mars/Olympus', false],
    ['avatar', 'https://example.com/a.png', true],
    ['avatar', 'ftp://example.com/a.png', false],
  ])('%s = %s is valid: %s', (field, value, valid) => {
    const errors = validateSubscriberAttributes({ [field]: value });
    expect(field in errors).toBe(!valid);
  });

  it('accepts null (a cleared field) and names every bad field', () => {
    expect(validateSubscriberAttributes({ email: null, phone: null })).toEqual({});
    const errors = validateSubscriberAttributes({ email: 'x', phone: 'y', subscriberId: ' ' });
    expect(Object.keys(errors).sort()).toEqual(['email', 'phone', 'subscriberId']);
  });
});
