import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { report, startBenchService, summarize } from './support/herald';

// Issue 44: how late an email held for its subscriber's delivery schedule goes out after the
// schedule opens, when SUBSCRIBERS of them open at the same minute (the wake-up burst a schedule
// makes: everyone's "08:00"). Lateness is what each step records when it goes out after the wait
// ("the subscriber's delivery schedule opened at ...; sending N ms after it").
const SUBSCRIBERS = Number(process.env.BENCH_SCHEDULE_SUBSCRIBERS ?? 500);

const svc = await startBenchService();
const db = svc.herald.databaseUrl;
try {
  await insertWorkflowWithSteps(db, { workflowId: 'bench-held' }, [{ type: 'email', stepId: 'email', controlValues: { subject: 'Hi', body: 'Order {{payload.n}}' } }]);
  // The next whole minute at least 20 s away, open for an hour, in UTC.
  const opensAt = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
  const hhmm = (d: Date) => {
    const h = d.getUTCHours();
    return `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  };
  const day = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][opensAt.getUTCDay()];
  const schedule = { isEnabled: true, weeklySchedule: { [day]: { isEnabled: true, hours: [{ start: hhmm(opensAt), end: hhmm(new Date(opensAt.getTime() + 3_600_000)) }] } } };
  const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => ({ subscriberId: `held-${i}`, email: `held-${i}@example.com` }));
  for (let i = 0; i < subscribers.length; i += 500) await svc.request('/v1/subscribers/bulk', { method: 'POST', json: { subscribers: subscribers.slice(i, i + 500) } });
  await query(db, `UPDATE subscribers SET schedule = $1::jsonb WHERE subscriber_id LIKE 'held-%'`, [JSON.stringify(schedule)]);
  for (let i = 0; i < SUBSCRIBERS; i += 100) {
    const to = subscribers.slice(i, i + 100).map((s) => s.subscriberId);
    await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'bench-held', to, payload: { n: i } } });
  }
  if (Date.now() >= opensAt.getTime()) throw new Error('the triggers took longer than the wait: lower BENCH_SCHEDULE_SUBSCRIBERS');
  const sentAfter = () =>
    query<{ detail: string }>(db, `SELECT d.detail FROM execution_details d WHERE d.detail LIKE 'the subscriber''s delivery schedule opened at %'`);
  await waitFor(async () => (await sentAfter()).length >= SUBSCRIBERS, opensAt.getTime() - Date.now() + 120_000, 250);
  const late = (await sentAfter()).map((r) => {
    const [, value, unit] = /sending ([\d.]+) (ms|s) after it$/.exec(r.detail)!;
    return Number(value) * (unit === 's' ? 1000 : 1);
  });
  const s = summarize(late);
  report('emails held for a schedule opening at one minute', SUBSCRIBERS, 'emails');
  report('held email sent after the opening, first', Math.min(...late), 'ms', '< 100 ms');
  report('held email sent after the opening p50', s.p50, 'ms');
  report('held email sent after the opening p99 (the burst drains at the engine rate)', s.p99, 'ms');
} finally {
  await svc.close();
}
