import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { report, startBenchService, summarize } from './support/herald';

// Issue 44: how late emails held for their subscribers' delivery schedule go out when SUBSCRIBERS of
// them open at the same minute (the wake-up burst a schedule makes: everyone's "08:00"). Baseline:
// the same burst of emails behind a delay that ends at one instant, for subscribers without a
// schedule, which is what Herald did for such a burst before schedules. Both are measured the same
// ways: when the wait ended (what the waiting step records) and when each email's message row is
// written, after the due instant.
const SUBSCRIBERS = Number(process.env.BENCH_SCHEDULE_SUBSCRIBERS ?? 500);
const EMAIL = { type: 'email', stepId: 'email', controlValues: { subject: 'Hi', body: 'Order {{payload.n}}' } };

const svc = await startBenchService();
const db = svc.herald.databaseUrl;

/** Creates `prefix-0..n` and triggers `workflowId` to them in requests of 100. */
async function burst(workflowId: string, prefix: string, payload: Record<string, unknown>, beforeTrigger?: () => Promise<void>) {
  const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => ({ subscriberId: `${prefix}-${i}`, email: `${prefix}-${i}@example.com` }));
  for (let i = 0; i < subscribers.length; i += 500) await svc.request('/v1/subscribers/bulk', { method: 'POST', json: { subscribers: subscribers.slice(i, i + 500) } });
  await beforeTrigger?.();
  for (let i = 0; i < SUBSCRIBERS; i += 100) {
    const to = subscribers.slice(i, i + 100).map((s) => s.subscriberId);
    const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: workflowId, to, payload: { ...payload, n: i } } });
    if (res.status !== 201) throw new Error(`trigger ${workflowId}: ${res.status} ${await res.text()}`);
  }
}

/** Milliseconds from `due` to each email message of `prefix-*` subscribers, once all are written. */
async function sentAfter(prefix: string, due: Date): Promise<number[]> {
  const read = () =>
    query<{ late: number }>(
      db,
      `SELECT (EXTRACT(EPOCH FROM m.created_at - $2::timestamptz) * 1000)::float8 AS late FROM messages m JOIN subscribers s ON s.id = m.subscriber_id
       WHERE s.subscriber_id LIKE $1 AND m.channel = 'email'`,
      [`${prefix}-%`, due],
    );
  await waitFor(async () => (await read()).length >= SUBSCRIBERS, due.getTime() - Date.now() + 120_000, 250);
  return (await read()).map((r) => Number(r.late));
}

/**
 * Milliseconds from the due instant to when each wait ended, as the step that waited records it: a
 * delay's `lateMs`, a held step's "sending N ms after it".
 */
async function started(prefix: string): Promise<number[]> {
  const rows = await query<{ late_ms: number | null; detail: string | null }>(
    db,
    `SELECT (j.output->>'lateMs')::float8 AS late_ms, d.detail FROM jobs j
       JOIN notifications n ON n.id = j.notification_id JOIN subscribers s ON s.id = n.subscriber_id
       LEFT JOIN execution_details d ON d.job_id = j.id AND d.detail LIKE 'the subscriber''s delivery schedule opened at %'
     WHERE s.subscriber_id LIKE $1 AND (j.step_id = 'wait' OR d.detail IS NOT NULL)`,
    [`${prefix}-%`],
  );
  return rows.map((r) => {
    if (r.late_ms !== null) return Number(r.late_ms);
    const [, value, unit] = /sending ([\d.]+) (ms|s) after it$/.exec(r.detail!)!;
    return Number(value) * (unit === 's' ? 1000 : 1);
  });
}

/** `08:00 AM` for an instant, in UTC (the bench's subscribers have no timezone). */
function hhmm(d: Date): string {
  const h = d.getUTCHours();
  return `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

try {
  // Baseline: a delay to one instant, then the email; no schedule.
  await insertWorkflowWithSteps(db, { workflowId: 'bench-delayed' }, [{ type: 'delay', stepId: 'wait', controlValues: { type: 'dynamic', dynamicKey: 'payload.at' } }, EMAIL]);
  const dueAt = new Date(Date.now() + 15_000);
  await burst('bench-delayed', 'base', { at: dueAt.toISOString() });
  if (Date.now() >= dueAt.getTime()) throw new Error('the triggers took longer than the wait: lower BENCH_SCHEDULE_SUBSCRIBERS');
  const baseline = await sentAfter('base', dueAt);

  // Held: the email alone, waiting for a schedule that opens at the next whole minute at least 20 s away.
  await insertWorkflowWithSteps(db, { workflowId: 'bench-held' }, [EMAIL]);
  const opensAt = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
  const day = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][opensAt.getUTCDay()];
  const schedule = { isEnabled: true, weeklySchedule: { [day]: { isEnabled: true, hours: [{ start: hhmm(opensAt), end: hhmm(new Date(opensAt.getTime() + 3_600_000)) }] } } };
  await burst('bench-held', 'held', {}, () => query(db, `UPDATE subscribers SET schedule = $1::jsonb WHERE subscriber_id LIKE 'held-%'`, [JSON.stringify(schedule)]).then(() => undefined));
  if (Date.now() >= opensAt.getTime()) throw new Error('the triggers took longer than the wait: lower BENCH_SCHEDULE_SUBSCRIBERS');
  const early = (await query<{ n: number }>(db, `SELECT count(*)::int AS n FROM messages m JOIN subscribers s ON s.id = m.subscriber_id WHERE s.subscriber_id LIKE 'held-%'`))[0].n;
  if (early) throw new Error(`${early} held emails went out before the schedule opened`);
  const held = await sentAfter('held', opensAt);

  const b = summarize(baseline);
  const h = summarize(held);
  const bs = summarize(await started('base'));
  const hs = summarize(await started('held'));
  report('emails in each burst (one due instant)', SUBSCRIBERS, 'emails');
  report('wait ended after its due instant p50 (baseline: delay, no schedule)', bs.p50, 'ms');
  report('wait ended after its due instant p50 (held for the schedule)', hs.p50, 'ms', '< 100 ms');
  report('wait ended after its due instant p99 (baseline: delay, no schedule)', bs.p99, 'ms');
  report('wait ended after its due instant p99 (held for the schedule)', hs.p99, 'ms');
  report('email written after its due instant, first (baseline: delay, no schedule)', Math.round(Math.min(...baseline)), 'ms');
  report('email written after its due instant, first (held for the schedule)', Math.round(Math.min(...held)), 'ms');
  report('email written after its due instant p50 (baseline: delay, no schedule)', b.p50, 'ms');
  report('email written after its due instant p50 (held for the schedule)', h.p50, 'ms');
  report('email written after its due instant p99 (baseline: delay, no schedule)', b.p99, 'ms');
  report('email written after its due instant p99 (held for the schedule; the burst drains at the engine rate)', h.p99, 'ms');
} finally {
  await svc.close();
}
