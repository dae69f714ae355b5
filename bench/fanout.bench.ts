import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@herald/adapters';
import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { postgresCpuSeconds, processCpuSeconds, processMemoryMb, report, requestWithKey, spawnHerald, stopHerald } from './support/herald';
import { walFigures } from './support/wal-figures';

// A 100,000-subscriber topic fan-out with one in_app step, from the trigger to the
// last inbox row, beside two same-run baselines: four rows per subscriber (notification, job,
// execution detail, inbox message) by one plain INSERT ... SELECT, and one INSERT of just the inbox rows (target: within 2.5x of that). Herald runs as
// `pnpm start` runs it, in its own process, on an embedded PostgreSQL this bench starts: the peak
// RSS printed is the service's own (target: < 300 MB at 1,000,000, FANOUT_SUBSCRIBERS=1000000).
// The fan-out runs FANOUT_RUNS times (5 by default, 1 at a million), each followed at once by the
// inbox-rows INSERT it is compared with: this machine's speed drifts by a fifth from minute to minute,
// so each fan-out is set against a baseline of the same minute, and the median of those ratios counts.
// Five, not three: the first fan-out of a run is usually its slowest (fresh connections and plans),
// and medians of three could not tell two versions apart that medians of five, alternated, did.
const SUBSCRIBERS = Number(process.env.FANOUT_SUBSCRIBERS ?? 100_000);
// The trigger's payload: a headline, plus (opt-in) FANOUT_PAYLOAD_BYTES characters of random text,
// which compresses about as little as real text: real payloads run from a few hundred bytes to a few KB.
const RUNS = Math.max(1, Math.floor(Number(process.env.FANOUT_RUNS ?? (SUBSCRIBERS >= 1_000_000 ? 1 : 5))) || 1);
const PAYLOAD_BYTES = Number(process.env.FANOUT_PAYLOAD_BYTES ?? 0);
const PAYLOAD = { headline: 'big news', ...(PAYLOAD_BYTES ? { article: randomBytes(PAYLOAD_BYTES).toString('base64').slice(0, PAYLOAD_BYTES) } : {}) };
const API_KEY = 'bench-key';

const dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-fanout-'));
const postgres = await startEmbeddedPostgres({ dataDir });
const db = postgres.url;
// Metrics on: /metrics tells the V8 heap from the rest of the RSS.
const { child, url } = await spawnHerald({ DATABASE_URL: db, HERALD_DATA_DIR: dataDir, HERALD_API_KEY: API_KEY, HERALD_METRICS: 'true' });
const svc = { request: (path: string, init: { method: string; json: unknown }) => requestWithKey(url, API_KEY, path, init) };
/** The service's V8 heap in use and reserved, and memory outside it held by JS objects (buffers), in bytes. */
async function serviceHeap(): Promise<{ used: number; total: number; external: number }> {
  const text = await (await requestWithKey(url, API_KEY, '/metrics')).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return { used: value('nodejs_heap_size_used_bytes'), total: value('nodejs_heap_size_total_bytes'), external: value('nodejs_external_memory_bytes') };
}
try {
  await insertWorkflowWithSteps(db, { workflowId: 'fanout' }, [{ type: 'in_app', controlValues: { subject: 'News', body: 'Hello {{subscriber.firstName}}, {{payload.headline}}' } }]);
  await query(
    db,
    `WITH env AS (SELECT id FROM environments WHERE slug = 'development'),
     subs AS (INSERT INTO subscribers (environment_id, subscriber_id, first_name)
              SELECT env.id, 'fan-' || g, 'User' || g FROM env, generate_series(1, $1) g RETURNING id, environment_id, subscriber_id),
     topic AS (INSERT INTO topics (environment_id, key) SELECT id, 'everyone' FROM env RETURNING id, environment_id)
     INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier)
     SELECT topic.environment_id, topic.id, subs.id, 'everyone:' || subs.subscriber_id FROM topic, subs`,
    [SUBSCRIBERS],
  );
  await query(db, 'VACUUM ANALYZE');

  // Baseline, made first (the inbox-rows baseline reads its notifications and jobs): the same rows (notification, job, execution detail, inbox message per subscriber) by plain INSERT ... SELECT.
  const baseStart = performance.now();
  await query(
    db,
    `WITH e AS (INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload)
           SELECT environment_id, id, 'fanout-base', '{}', $1::jsonb FROM workflows WHERE workflow_id = 'fanout' RETURNING id, environment_id, workflow_id),
     n AS (INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
           SELECT e.environment_id, e.id, e.workflow_id, ts.subscriber_id, 'base'
           FROM e, topic_subscriptions ts RETURNING id, environment_id, subscriber_id),
     j AS (INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
           SELECT n.environment_id, n.id, n.subscriber_id, gen_random_uuid(), 'in_app-0', 'in_app', 0, 'completed' FROM n RETURNING id, notification_id, environment_id, subscriber_id),
     d AS (INSERT INTO execution_details (environment_id, job_id, notification_id, status, detail)
           SELECT environment_id, id, notification_id, 'Success', 'stored' FROM j RETURNING 1),
     m AS (INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, subject, body)
           SELECT j.environment_id, j.notification_id, j.id, j.subscriber_id, 'base', 'in_app', 'News', 'Hello' FROM j RETURNING 1)
     SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM d) AS rows`,
    [JSON.stringify(PAYLOAD)],
  );
  const fourRowsMs = performance.now() - baseStart;
  // Its inbox rows go: the inbox-rows baseline writes its own beside each fan-out.
  await query(db, "DELETE FROM messages WHERE transaction_id = 'base'");
  await query(db, 'VACUUM ANALYZE');
  const reportFourRows = () => report(`plain INSERT ... SELECT of four rows per subscriber (notification, job, execution detail, message) for ${SUBSCRIBERS} subscribers`, Math.round(fourRowsMs), 'ms');

  const rssBefore = await processMemoryMb(child.pid!);
  const heapPeak = { used: 0, total: 0, external: 0 };
  const heapSampler = setInterval(() => {
    serviceHeap().then((h) => {
      heapPeak.used = Math.max(heapPeak.used, h.used);
      heapPeak.total = Math.max(heapPeak.total, h.total);
      heapPeak.external = Math.max(heapPeak.external, h.external);
    }, () => undefined);
  }, 500);
  const [{ pid: checkpointer }] = await query<{ pid: number }>(db, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
  // The polls share one connection: a connection per poll (a new backend and its password exchange
  // ten times a second) took about 5% of the machine's CPU during the fan-out (perf, all processes).
  const poller = new pg.Client({ connectionString: db });
  // A connection lost mid-run fails the poll that uses it (and so the bench), not the process with an unhandled 'error' event.
  poller.on('error', (err) => console.error(`the poller's connection failed: ${err.message}`));
  await poller.connect();

  /** One fan-out to every subscriber, from its trigger to its last inbox row. */
  async function fanOut(transactionId: string) {
    const cpuBefore = { service: await processCpuSeconds(child.pid!), postgres: await postgresCpuSeconds(checkpointer) };
    const walBefore = await walFigures(poller);
    const started = performance.now();
    const res = await svc.request('/v1/events/trigger', {
      method: 'POST',
      json: { name: 'fanout', to: { type: 'Topic', topicKey: 'everyone' }, payload: PAYLOAD, transactionId },
    });
    if (res.status !== 201) throw new Error(`trigger failed: ${res.status}`);
    await res.arrayBuffer();
    let fannedOutMs = 0;
    let totalMs = 0;
    // The inbox rows are counted only once the fan-out is done: counted every 250 ms, they would take
    // 5-8% of the database's CPU during the fan-out it measures (about 25 ms a count at 100,000 rows).
    // The event's status is polled every 20 ms (a lookup in a table of a few rows). The fan-out's end is
    // when the count that finds every inbox row starts, as its snapshot holds them all: not when it
    // returns, which would add the count's own time, and a slow poll would add half its interval.
    await waitFor(async () => {
      if (!fannedOutMs) {
        const polledAt = performance.now();
        const { rows: [e] } = await poller.query<{ status: string }>('SELECT status FROM events WHERE transaction_id = $1', [transactionId]);
        if (e.status !== 'fanned_out') return false;
        fannedOutMs = polledAt - started;
      }
      const countedAt = performance.now();
      const { rows: [{ n }] } = await poller.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE transaction_id = $1', [transactionId]);
      if (n < SUBSCRIBERS) return false;
      totalMs = countedAt - started;
      return true;
    }, 600_000, 20);
    const cpu = { service: (await processCpuSeconds(child.pid!)) - cpuBefore.service, postgres: (await postgresCpuSeconds(checkpointer)) - cpuBefore.postgres };
    const walAfter = await walFigures(poller);
    const wal = { mb: (walAfter.bytes - walBefore.bytes) / 1048576, checkpoints: walAfter.checkpoints - walBefore.checkpoints };
    const [{ n: distinct }] = await query<{ n: number }>(db, 'SELECT count(DISTINCT subscriber_id)::int AS n FROM messages WHERE transaction_id = $1', [transactionId]);
    // The first in-app step is written with the fan-out's chunks: its last chunk writes the last inbox rows.
    return { totalMs, fannedOutMs: fannedOutMs || totalMs, cpu, wal, distinct };
  }

  // Each run starts from the same tables: the rows of the run before (its fan-out's and its
  // baseline's inbox rows) are removed and vacuumed first.
  const runs: Array<Awaited<ReturnType<typeof fanOut>> & { inboxMs: number }> = [];
  /**
   * Baseline: one INSERT of just the inbox rows, on the four-row baseline's notifications and jobs (one
   * inbox row per job), into the table as the fan-out just left it.
   */
  async function inboxInsert(): Promise<number> {
    const started = performance.now();
    await query(
      db,
      `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, subject, body)
       SELECT j.environment_id, j.notification_id, j.id, j.subscriber_id, 'base-inbox', 'in_app', 'News', 'Hello'
       FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = 'base'`,
    );
    return performance.now() - started;
  }

  for (let run = 0; run < RUNS; run++) {
    if (run > 0) {
      await query(db, "DELETE FROM messages WHERE transaction_id LIKE 'fanout-%' OR transaction_id = 'base-inbox'");
      await query(db, "DELETE FROM notifications WHERE transaction_id LIKE 'fanout-%'");
      await query(db, 'VACUUM ANALYZE messages, notifications, jobs, execution_details');
    }
    const fanned = await fanOut(`fanout-${run + 1}`);
    runs.push({ ...fanned, inboxMs: await inboxInsert() });
  }
  await poller.end();
  clearInterval(heapSampler);
  const peakRss = await processMemoryMb(child.pid!, 'VmHWM');
  const byTime = [...runs].sort((a, b) => a.totalMs - b.totalMs);
  const median = byTime[Math.floor((byTime.length - 1) / 2)];
  const totalMs = median.totalMs;
  const each = runs.length > 1 ? `, median of ${runs.length} (${runs.map((r) => Math.round(r.totalMs)).join(' / ')} ms)` : '';
  const inboxEach = runs.length > 1 ? ` (${runs.map((r) => Math.round(r.inboxMs)).join(' / ')} ms)` : '';
  report(`fan-out to ${SUBSCRIBERS} subscribers: all notifications and jobs created`, Math.round(median.fannedOutMs), 'ms');
  report(`fan-out to ${SUBSCRIBERS} subscribers: trigger to last inbox row${each}`, Math.round(totalMs), 'ms', '< 20000 ms');
  report('inbox rows for distinct subscribers, fewest of the runs', Math.min(...runs.map((r) => r.distinct)), `/ ${SUBSCRIBERS}`);
  report('RSS of the service process before the trigger', Math.round(rssBefore), 'MB');
  report('peak RSS of the service process (VmHWM)', Math.round(peakRss), 'MB', '< 300 MB at 1,000,000 subscribers');
  // Where the time went: both processes share this machine's cores (the bench's own polling is small).
  const seconds = (n: number) => Math.round(n * 10) / 10;
  report(
    `CPU during the median fan-out: service / PostgreSQL, of ${cpus().length} cores x ${seconds(totalMs / 1000)} s`,
    `${seconds(median.cpu.service)} / ${seconds(median.cpu.postgres)}`,
    `s (${Math.round(((median.cpu.service + median.cpu.postgres) / ((cpus().length * totalMs) / 1000)) * 100)}% of the machine)`,
  );
  report('WAL written during the median fan-out, and checkpoints started in it', `${Math.round(median.wal.mb)} MB, ${median.wal.checkpoints}`, '');
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  report('its V8 heap during the fan-outs, peak used / reserved / external (sampled every 0.5 s)', `${mb(heapPeak.used)} / ${mb(heapPeak.total)} / ${mb(heapPeak.external)}`, 'MB');

  const inboxMedian = [...runs].sort((a, b) => a.inboxMs - b.inboxMs)[Math.floor((runs.length - 1) / 2)].inboxMs;
  report(`one INSERT of just the ${SUBSCRIBERS} inbox rows, right after each fan-out, median${inboxEach}`, Math.round(inboxMedian), 'ms');
  reportFourRows();
  const ratios = runs.map((r) => r.totalMs / r.inboxMs).sort((x, y) => x - y);
  const ratio = ratios[Math.floor((ratios.length - 1) / 2)];
  const pairs = runs.length > 1 ? `, median of the ${runs.length} pairs (${runs.map((r) => (r.totalMs / r.inboxMs).toFixed(1)).join(' / ')})` : '';
  report(`trigger to last inbox row / inbox-rows INSERT of the same minute${pairs}`, Math.round(ratio * 10) / 10, 'x', '<= 2.5x');
} finally {
  await stopHerald(child);
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
