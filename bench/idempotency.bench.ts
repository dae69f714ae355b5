import { randomUUID } from 'node:crypto';
import { report, startBenchService, summarize } from './support/herald';

// Issue 5: the idempotency check (claim before, store after) adds under 2 ms (median) to a POST.
// The same POST /v2/subscribers is sent with and without a fresh idempotency-key, interleaved so both
// see the same database state, and every request creates a new subscriber.
const WARMUP = 300;
const PAIRS = 3_000;
const svc = await startBenchService();
try {
  let n = 0;
  const post = async (withKey: boolean) => {
    const body = { subscriberId: `idem-bench-${++n}`, firstName: 'Bench', email: `bench${n}@example.com`, data: { plan: 'pro', n } };
    const headers: Record<string, string> = withKey ? { 'idempotency-key': randomUUID() } : {};
    const started = performance.now();
    const res = await svc.request('/v2/subscribers', { method: 'POST', json: body, headers });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 201) throw new Error(`POST failed: ${res.status}`);
    if (withKey !== (res.headers.get('idempotency-key') !== null)) throw new Error('idempotency middleware did not run as expected');
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) {
    await post(true);
    await post(false);
  }
  const withKey: number[] = [];
  const withoutKey: number[] = [];
  const differences: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    // Alternate which goes first, so neither always follows the other.
    const [a, b] = i % 2 ? [await post(true), await post(false)] : [NaN, NaN];
    const [d, c] = i % 2 ? [NaN, NaN] : [await post(false), await post(true)];
    const keyed = i % 2 ? a : c;
    const plain = i % 2 ? b : d;
    withKey.push(keyed);
    withoutKey.push(plain);
    differences.push(keyed - plain);
  }
  const k = summarize(withKey);
  const p = summarize(withoutKey);
  const diff = summarize(differences);
  report('POST /v2/subscribers without idempotency-key p50', p.p50, 'ms');
  report('POST /v2/subscribers with a new idempotency-key p50', k.p50, 'ms');
  report('POST /v2/subscribers without idempotency-key p99', p.p99, 'ms');
  report('POST /v2/subscribers with a new idempotency-key p99', k.p99, 'ms');
  report('idempotency overhead (difference of medians)', Math.round((k.p50 - p.p50) * 100) / 100, 'ms', '< 2 ms');
  report('idempotency overhead (median of paired differences)', diff.p50, 'ms', '< 2 ms');
  report('samples', PAIRS, 'pairs after warm-up');
} finally {
  await svc.close();
}
