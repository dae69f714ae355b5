import { sendRateLimiterContract } from './send-rate-limiter-contract';
import { InMemorySendRateLimiter } from './in-memory-send-rate-limiter';

sendRateLimiterContract('in-memory', async () => {
  const slots = new Map<string, number>();
  return { processes: [new InMemorySendRateLimiter(slots), new InMemorySendRateLimiter(slots)] };
});
