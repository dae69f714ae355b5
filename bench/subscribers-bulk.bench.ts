import { report, startBenchService, summarize } from './support/herald';

// Issue 2: bulk-creating 500 subscribers takes under 300 ms on this 2-core machine.
const ROUNDS = 30;
const svc = await startBenchService();
try {
  const batch = (round: number) =>
    Array.from({ length: 500 }, (_, i) => ({
      subscriberId: `bulk-${round}-${i}`,
      firstName: 'Bench',
      lastName: `User ${i}`,
      email: `user${i}.r${round}@example.com`,
      phone: `+1415555${String(i).padStart(4, '0')}`,
      locale: 'en-US',
      timezone: 'America/New_York',
      data: { plan: i % 2 ? 'pro' : 'free', index: i },
    }));
  const post = async (subscribers: unknown[]) => {
    const started = performance.now();
    const res = await svc.request('/v1/subscribers/bulk', { method: 'POST', json: { subscribers } });
    const body = (await res.json()) as { data: { created: unknown[]; updated: unknown[] } };
    if (res.status !== 201) throw new Error(`bulk failed: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, created: body.data.created.length, updated: body.data.updated.length };
  };
  for (let w = 0; w < 3; w++) await post(batch(-1 - w)); // warm-up
  const created: number[] = [];
  const updated: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const first = await post(batch(round));
    if (first.created !== 500) throw new Error(`expected 500 created, got ${first.created}`);
    created.push(first.ms);
    const again = await post(batch(round));
    if (again.updated !== 500) throw new Error(`expected 500 updated, got ${again.updated}`);
    updated.push(again.ms);
  }
  const c = summarize(created);
  const u = summarize(updated);
  report('bulk create 500 new subscribers p50', c.p50, 'ms', '< 300 ms');
  report('bulk create 500 new subscribers p99', c.p99, 'ms', '< 300 ms');
  report('bulk upsert 500 existing subscribers p50', u.p50, 'ms', '< 300 ms');
  report('bulk upsert 500 existing subscribers p99', u.p99, 'ms');
  report('rounds', ROUNDS, 'x 500 subscribers');
} finally {
  await svc.close();
}
