// Load generator in its own process (autocannon: keep-alive connections, little client CPU), so the
// service is not measured together with an in-process HTTP client.
// Usage: node trigger-load.mjs <url> <apiKey> <workflow> <subscriberId> <seconds> <connections> [options JSON]
// options: overallRate (requests/s), amount (requests in all, instead of seconds), keys (payload.key = i % keys),
// attributes (subscriber fields: the recipient is named by an object, { subscriberId, ...attributes }).
import autocannon from 'autocannon';

const [url, key, workflow, subscriberId, seconds, connections, options] = process.argv.slice(2);
const { overallRate, amount, keys, attributes } = options ? JSON.parse(options) : {};
const to = attributes ? { subscriberId, ...attributes } : subscriberId;
let i = 0;
const result = await autocannon({
  ...(overallRate ? { overallRate } : {}),
  ...(amount ? { amount } : {}),
  url: `${url}/v1/events/trigger`,
  method: 'POST',
  connections: Number(connections),
  duration: Number(seconds),
  headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
  requests: [
    {
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({ name: workflow, to, payload: { orderId: i, ...(keys ? { key: `k${i % keys}` } : {}) }, transactionId: `load-${process.pid}-${i++}` }),
      }),
    },
  ],
});
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({
    total: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }) + '\n',
);
