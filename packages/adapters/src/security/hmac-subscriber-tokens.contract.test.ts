import { randomBytes } from 'node:crypto';
import { subscriberTokensContract } from '@herald/domain/testing/subscriber-tokens-contract';
import { HmacSubscriberTokens } from './hmac-subscriber-tokens';

subscriberTokensContract('HMAC', () => {
  let now = 1_000_000;
  const clock = () => now;
  const key = randomBytes(32);
  return {
    process: new HmacSubscriberTokens(key, 60_000, clock),
    sameInstallation: new HmacSubscriberTokens(Buffer.from(key), 60_000, clock),
    otherInstallation: new HmacSubscriberTokens(randomBytes(32), 60_000, clock),
    advance: (ms) => void (now += ms),
    ttlMs: 60_000,
  };
});
