import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, signWebhook } from './webhook-signature';

describe('signWebhook', () => {
  const body = JSON.stringify({ type: 'message.sent', timestamp: '2030-01-01T00:00:00.000Z', data: { id: 1 } });

  it('signs as Standard Webhooks verifies: the library accepts the headers with the secret', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('refuses an altered body, another id or another secret', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'msg_1', new Date(), body);
    expect(() => new Webhook(secret).verify(body.replace('1}', '2}'), { ...headers })).toThrow(/signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow(/signature/);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow(/signature/);
  });

  it('during a rotation both secrets sign, so a receiver with either accepts', () => {
    const [old, fresh] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signWebhook([fresh, old], 'msg_1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [old, fresh]) expect(() => new Webhook(secret).verify(body, { ...headers })).not.toThrow();
  });

  it('carries the timestamp in seconds, so the library refuses an old request', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'msg_1', new Date(Date.now() - 3_600_000), body);
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow(/too old/);
  });

  it('tells secrets from other strings', () => {
    expect(isWebhookSecret(generateWebhookSecret())).toBe(true);
    expect(isWebhookSecret('whsec_')).toBe(false);
    expect(isWebhookSecret('hunter2')).toBe(false);
  });
});
