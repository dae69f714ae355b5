import { describe, expect, it } from 'vitest';
import type { WorkflowStepType } from '../entities/channel';
import type { FieldErrors } from '../errors';
import { isCronExpression, validateStepControls } from './step-controls';

function check(type: WorkflowStepType, raw: unknown) {
  const errors: FieldErrors = {};
  const result = validateStepControls(type, raw, 'steps[1].controlValues', errors);
  return { ...result, errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.messages[0]])) };
}

describe('validateStepControls accepts and normalises', () => {
  it.each([
    ['in_app', { body: 'b', primaryAction: { label: 'Go', redirect: { url: '/x', target: '_self' } }, data: { k: 1 } }, { body: 'b', primaryAction: { label: 'Go', redirect: { url: '/x', target: '_self' } }, data: { k: 1 } }],
    ['email', { subject: 's', body: '<p/>', editorType: 'block', disableOutputSanitization: false }, { subject: 's', body: '<p/>', editorType: 'block', disableOutputSanitization: false }],
    ['sms', {}, {}],
    ['digest', { type: 'backoff', backoffAmount: 5, backoffUnit: 'minutes', amount: 1, unit: 'hours' }, { type: 'regular', amount: 1, unit: 'hours', lookBackWindow: { amount: 5, unit: 'minutes' } }],
    ['digest', { type: 'timed', cron: '0 9 * * 1-5' }, { type: 'timed', cron: '0 9 * * 1-5' }],
    ['digest', { type: 'timed', timed: { atTime: '09:30', weekDays: ['monday'] } }, { type: 'timed', timed: { atTime: '09:30', weekDays: ['monday'] } }],
    ['delay', { type: 'timed', dynamicKey: 'payload.sendAt' }, { type: 'timed', dynamicKey: 'payload.sendAt' }],
    ['throttle', { amount: 1, unit: 'hours', throttleKey: 'payload.k' }, { amount: 1, unit: 'hours', threshold: 1, throttleKey: 'payload.k' }],
    ['http_request', { url: 'https://x.test', headers: [{ key: 'A', value: 'b' }], body: [{ key: 'k', value: 'v' }] }, { method: 'POST', url: 'https://x.test', headers: [{ key: 'A', value: 'b' }], body: [{ key: 'k', value: 'v' }] }],
    ['http_request', undefined, { method: 'POST' }],
    ['custom', { anything: { goes: [1, 2] } }, { anything: { goes: [1, 2] } }],
  ] as const)('%s %j', (type, raw, controlValues) => {
    expect(check(type, raw)).toEqual({ controlValues, skip: null, errors: {} });
  });

  it('splits out a valid skip rule', () => {
    const skip = { '==': [{ var: 'payload.muted' }, true] };
    expect(check('sms', { body: 'x', skip })).toEqual({ controlValues: { body: 'x' }, skip, errors: {} });
  });
});

describe('validateStepControls names every wrong field', () => {
  it.each([
    ['in_app', { body: 42 }, { 'steps[1].controlValues.body': 'must be a string' }],
    ['in_app', { body: 'b', bodyy: 'typo' }, { 'steps[1].controlValues.bodyy': 'is not a control of an in_app step' }],
    ['in_app', { redirect: { target: '_new' } }, { 'steps[1].controlValues.redirect.url': 'is required in a redirect', 'steps[1].controlValues.redirect.target': expect.stringMatching(/one of _self/) }],
    ['in_app', { primaryAction: 'go' }, { 'steps[1].controlValues.primaryAction': 'must be an object' }],
    ['email', { editorType: 'markdown' }, { 'steps[1].controlValues.editorType': 'must be one of html, block' }],
    ['digest', { amount: -1, unit: 'years' }, { 'steps[1].controlValues.amount': 'must be greater than 0', 'steps[1].controlValues.unit': expect.stringMatching(/one of seconds/) }],
    ['digest', { type: 'backoff', backoffAmount: 2 }, { 'steps[1].controlValues.backoffUnit': 'is required for a backoff digest' }],
    ['digest', { lookBackWindow: { amount: 1 } }, { 'steps[1].controlValues.lookBackWindow.unit': 'is required in a look-back window' }],
    ['delay', { type: 'timed', cron: 'every day' }, { 'steps[1].controlValues.cron': expect.stringMatching(/cron expression/) }],
    ['throttle', { threshold: 1.5, unit: 'seconds' }, { 'steps[1].controlValues.threshold': 'must be a whole number', 'steps[1].controlValues.unit': 'must be one of minutes, hours, days' }],
    ['http_request', { method: 'TRACE', headers: [{ key: 'A' }] }, { 'steps[1].controlValues.method': expect.stringMatching(/one of GET/), 'steps[1].controlValues.headers[0]': expect.stringMatching(/key and value/) }],
    ['sms', { body: 'x', skip: { bogus: [] } }, { 'steps[1].controlValues.skip': expect.stringMatching(/unknown operator 'bogus'/) }],
    ['sms', 'body', { 'steps[1].controlValues': 'must be an object' }],
  ] as const)('%s %j', (type, raw, errors) => {
    expect(check(type, raw).errors).toEqual(errors);
  });
});

describe('isCronExpression', () => {
  it.each([
    ['0 9 * * 1-5', true],
    ['*/15 * * * *', true],
    ['0 0 9 * * MON', true],
    ['@daily', true],
    ['0 9 * *', false],
    ['rm -rf / * * *', false],
  ])('%s -> %s', (value, valid) => {
    expect(isCronExpression(value)).toBe(valid);
  });
});
