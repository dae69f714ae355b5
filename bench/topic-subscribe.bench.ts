import { report, startBenchService, summarize } from './support/herald';

// Issue 4: subscribing 100 subscribers to a topic in one request (one round of set-based SQL) takes under 50 ms.
const ROUNDS = 100;
const WARM_UP = 10;
const svc = await startBenchService();
try {
  const subscriberIds = Array.from({ length: 100 }, (_, i) => `topic-bench-${i}`);
  const bulk = await svc.request('/v1/subscribers/bulk', {
    method: 'POST',
    json: { subscribers: subscriberIds.map((subscriberId, i) => ({ subscriberId, firstName: 'Bench', email: `bench${i}@example.com` })) },
  });
  if (bulk.status !== 201) throw new Error(`bulk create failed: ${bulk.status} ${await bulk.text()}`);

  const subscribe = async (topicKey: string, context?: Record<string, string>) => {
    const started = performance.now();
    const res = await svc.request(`/v2/topics/${topicKey}/subscriptions`, { method: 'POST', json: { subscriptions: subscriberIds, name: topicKey, context } });
    const body = (await res.json()) as { meta?: { successful: number } };
    const ms = performance.now() - started;
    if (res.status !== 201 || body.meta?.successful !== 100) throw new Error(`subscribe failed: ${res.status} ${JSON.stringify(body)}`);
    return ms;
  };

  for (let w = 0; w < WARM_UP; w++) await subscribe(`warm-${w}`);
  const fresh: number[] = [];
  const again: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh topic each round: the topic and 100 subscriptions are created.
    fresh.push(await subscribe(`bench-${round}`, { tenant: `t${round}` }));
    // The same request again: every subscription is updated in place.
    again.push(await subscribe(`bench-${round}`, { tenant: `t${round}` }));
  }
  const f = summarize(fresh);
  const a = summarize(again);
  report('subscribe 100 subscribers to a new topic p50', f.p50, 'ms', '< 50 ms');
  report('subscribe 100 subscribers to a new topic p99', f.p99, 'ms', '< 50 ms');
  report('re-subscribe 100 subscribers (updates) p50', a.p50, 'ms', '< 50 ms');
  report('re-subscribe 100 subscribers (updates) p99', a.p99, 'ms');
  report('rounds', ROUNDS, 'x 100 subscriptions');
} finally {
  await svc.close();
}
