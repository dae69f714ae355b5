import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacSubscriberTokens } from './hmac-subscriber-tokens';

const claims = { environmentId: 'env-1', subscriberRef: 'sub-1', subscriberId: 'ada', securityVersion: 3 };

describe('HmacSubscriberTokens', () => {
  const key = randomBytes(32);

  it('verifies what another instance with the same key issued', () => {
    expect(new HmacSubscriberTokens(key).verify(new HmacSubscriberTokens(key).issue(claims))).toEqual(claims);
  });

  it('refuses a token made with another key, altered, expired or malformed', () => {
    const token = new HmacSubscriberTokens(key).issue(claims);
    expect(new HmacSubscriberTokens(randomBytes(32)).verify(token)).toBeNull();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ e: 'env-2', r: 'sub-1', s: 'ada', x: Date.now() + 60_000 })).toString('base64url');
    expect(new HmacSubscriberTokens(key).verify(`${forged}.${signature}`)).toBeNull();
    expect(new HmacSubscriberTokens(key).verify(`${payload}.${signature}x`)).toBeNull();
    const later = new HmacSubscriberTokens(key, 1_000, () => Date.now() + 2_000);
    expect(later.verify(new HmacSubscriberTokens(key, 1_000).issue(claims))).toBeNull();
    expect(new HmacSubscriberTokens(key).verify('not-a-token')).toBeNull();
  });

  it('reads a token issued before tokens carried a security version as version 0, and refuses a malformed version', () => {
    const sign = (body: object) => {
      const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
      const signingKey = createHmac('sha256', key).update('herald/inbox-subscriber-token/v1').digest();
      return `${payload}.${createHmac('sha256', signingKey).update(payload).digest('base64url')}`;
    };
    const old = { e: 'env-1', r: 'sub-1', s: 'ada', x: Date.now() + 60_000 };
    expect(new HmacSubscriberTokens(key).verify(sign(old))).toEqual({ ...claims, securityVersion: 0 });
    expect(new HmacSubscriberTokens(key).verify(sign({ ...old, v: '3' }))).toBeNull();
  });
});
