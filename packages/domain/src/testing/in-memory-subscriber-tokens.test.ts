import { InMemorySubscriberTokens } from './in-memory-subscriber-tokens';
import { subscriberTokensContract } from './subscriber-tokens-contract';

subscriberTokensContract('in memory', () => {
  let now = 1_000_000;
  const clock = () => now;
  const installation = new Map();
  return {
    process: new InMemorySubscriberTokens(installation, 60_000, clock),
    sameInstallation: new InMemorySubscriberTokens(installation, 60_000, clock),
    otherInstallation: new InMemorySubscriberTokens(new Map(), 60_000, clock),
    advance: (ms) => void (now += ms),
    ttlMs: 60_000,
  };
});
