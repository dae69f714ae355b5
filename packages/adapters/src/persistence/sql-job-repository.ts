import { LEASED_STEP_TYPES, type InAppMessageState, type JobOutcome, type JobRepository, type RunnableJob } from '@herald/domain';
import type { Pool } from 'pg';
import { fanoutWork, stepsWork, type PgBossDeliveryQueue, type QueuedWork } from '../queue/pg-boss-delivery-queue';
import { webhookEvents } from './webhook-job-events';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { insertMessages, messageRows, preferenceLevels, stepPreferences, toDeliveryStep, subscriberFromJson } from './delivery-rows';
import { isUuid, jsonParam, prepared } from './sql-params';
import { inTransaction } from './transaction';

/** A job still `running` after this long was left by a crashed worker and may be claimed again. */
export const LEASE_SECONDS = 30;
const LEASE = `${LEASE_SECONDS} seconds`;

// Claims the due job of each notification and loads what running it needs, in one statement. Only
// steps with side effects ($2, LEASED_STEP_TYPES) are written (leased as running); the others are
// read, and RECORD keeps the first result recorded for them. That spares the hot in-app path one
// update of every job (a new row version and three index entries).
const CLAIM = `
WITH due AS (
  -- Leased by the type of the step as it is now (the one its handler runs), not as it was at trigger time.
  SELECT jobs.id, jobs.notification_id, jobs.workflow_step_id, jobs.attempts, ws.type = ANY($2::text[]) AS leased FROM jobs
  -- A job whose step or subscriber was deleted is not claimed (the sweep cancels it).
  JOIN workflow_steps ws ON ws.id = jobs.workflow_step_id
  WHERE jobs.notification_id = ANY($1::uuid[])
    AND ((jobs.status IN ('queued', 'delayed') AND jobs.run_at <= now()) OR (jobs.status = 'running' AND jobs.updated_at < now() - interval '${LEASE}'))
    AND EXISTS (SELECT 1 FROM subscribers s WHERE s.id = jobs.subscriber_id)
  FOR UPDATE OF jobs SKIP LOCKED
), leases AS (
  -- $3: this worker process, so the lease ends at once if it dies (SqlWorkerRegistry).
  UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, updated_at = now(), lease_owner = $3::uuid
  FROM due WHERE j.id = due.id AND due.leased
  RETURNING j.id, j.notification_id, j.workflow_step_id, j.attempts, true AS leased
), claimed AS (
  SELECT * FROM leases
  UNION ALL
  SELECT id, notification_id, workflow_step_id, attempts + 1, false FROM due WHERE NOT leased
)
SELECT c.id AS job_id, c.attempts, c.leased, sj.delivery_state, n.id AS notification_id, n.environment_id, n.transaction_id, e.payload, n.context_keys, e.overrides, e.trace_context,
       row_to_json(s.*) AS subscriber,
       row_to_json(ws.*) AS step,
       json_build_object('id', w.id, 'identifier', w.workflow_id, 'name', w.name, 'active', w.active, 'critical', w.critical,
         'severity', w.severity, 'origin', w.origin, 'tags', w.tags, 'data', w.data, 'preferences', w.preferences) AS workflow,
       (SELECT COALESCE(json_object_agg(pj.step_id, pj.output), '{}') FROM jobs pj
         WHERE pj.notification_id = n.id AND pj.output IS NOT NULL) AS outputs,
       ${stepPreferences('n.subscriber_id', 'w.id')} AS preferences
FROM claimed c
JOIN jobs sj ON sj.id = c.id
JOIN notifications n ON n.id = c.notification_id
JOIN events e ON e.id = n.event_id
JOIN subscribers s ON s.id = n.subscriber_id
JOIN workflows w ON w.id = n.workflow_id
JOIN workflow_steps ws ON ws.id = c.workflow_step_id`;

// Records a batch of outcomes in one statement: job statuses, execution details, messages, cancelled
// remainders of halted notifications, and each other notification's next job made due (queued) or
// scheduled (delayed until run_at).
const RECORD = `
WITH updated AS (
  -- Only a job this attempt still holds is recorded. A leased job reclaimed after its lease lapsed
  -- has a newer attempt number; an unleased job someone else recorded first is no longer unfinished.
  -- A step that runs again later (status delayed, rerun_at) stays unfinished and keeps its place.
  UPDATE jobs j SET status = r.status, attempts = r.attempts, provider_id = COALESCE(r.provider_id, j.provider_id),
    output = COALESCE(r.output, j.output), run_at = COALESCE(r.rerun_at, j.run_at), updated_at = now(),
    delivery_state = COALESCE(r.delivery_state, j.delivery_state), digest = COALESCE(r.digest, j.digest),
    schedule_extensions_count = j.schedule_extensions_count + COALESCE(r.schedule_extensions, 0)
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, status text, provider_id text, output jsonb, attempts int, leased boolean, rerun_at timestamptz,
    delivery_state jsonb, digest jsonb, schedule_extensions int)
  WHERE j.id = r.id AND j.status IN ('queued', 'delayed', 'running') AND j.attempts = CASE WHEN r.leased THEN r.attempts ELSE r.attempts - 1 END
  RETURNING j.id, j.notification_id, j.environment_id, j.status, j.step_id, j.type, j.provider_id
), details AS (
  INSERT INTO execution_details (environment_id, job_id, notification_id, status, source, detail, provider_id, raw, is_retry)
  SELECT environment_id, job_id, notification_id, status, source, detail, provider_id, raw, is_retry
  FROM jsonb_to_recordset($2::jsonb) AS r(environment_id uuid, job_id uuid, notification_id uuid, status text, source text,
    detail text, provider_id text, raw text, is_retry boolean, ord int)
  WHERE r.job_id IN (SELECT id FROM updated)
  ORDER BY ord
), messages AS (
  ${insertMessages({ json: '$3' }, 'r.job_id IN (SELECT id FROM updated)')}
), halted AS (
  UPDATE jobs SET status = 'canceled', updated_at = now()
  WHERE notification_id = ANY($4::uuid[]) AND notification_id IN (SELECT notification_id FROM updated) AND status = 'pending'
), advancing AS (
  SELECT r.* FROM jsonb_to_recordset($5::jsonb) AS r(notification_id uuid, position int, run_at timestamptz)
  WHERE r.notification_id IN (SELECT notification_id FROM updated)
), nxt AS (
  SELECT DISTINCT ON (j.notification_id) j.id, j.notification_id, COALESCE(a.run_at, now()) AS run_at
  FROM jobs j JOIN advancing a ON j.notification_id = a.notification_id AND j.position > a.position AND j.status = 'pending'
  ORDER BY j.notification_id, j.position
), webhooks AS (
  ${webhookEvents('updated', 'nxt', '$2', '$4')}
)
UPDATE jobs SET status = CASE WHEN nxt.run_at <= now() THEN 'queued' ELSE 'delayed' END, run_at = nxt.run_at, updated_at = now()
FROM nxt WHERE jobs.id = nxt.id AND jobs.status = 'pending'
RETURNING jobs.notification_id, jobs.status, jobs.run_at`;

const claimStatement = prepared('herald-claim-jobs', CLAIM);
const recordStatement = prepared('herald-record-jobs', RECORD);

function rerunAt(outcome: JobOutcome): Date {
  if (!outcome.rerunAt) throw new Error(`a delayed outcome needs rerunAt (job ${outcome.job.jobId})`);
  return outcome.rerunAt;
}

/** Claims and records step runs for batches of notifications with a handful of set-based statements. */
export class SqlJobRepository implements JobRepository {
  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
    /** Opens the claimed subscribers' channel credentials (when a channel step reads them). */
    private readonly channels: ChannelCredentialCipher,
    /** The worker process whose leases these are (WorkerRegistry.workerId); null leaves them to lapse. */
    private readonly workerId: string | null = null,
  ) {}

  async claim(notificationIds: string[]): Promise<RunnableJob[]> {
    if (!notificationIds.length) return [];
    const { rows } = await this.pool.query(claimStatement([notificationIds, LEASED_STEP_TYPES, this.workerId]));
    return rows.map((r): RunnableJob => {
      return {
          jobId: r.job_id,
          notificationId: r.notification_id,
          environmentId: r.environment_id,
          transactionId: r.transaction_id,
          attempts: r.attempts,
          leased: r.leased,
          step: toDeliveryStep(r.step),
          workflow: { ...r.workflow, preferences: r.workflow.preferences ?? {} },
          subscriber: subscriberFromJson(r.subscriber, this.channels),
          // The row's schedule column, read by the same statement as the rest of the subscriber.
          schedule: r.subscriber.schedule ?? null,
          payload: r.payload ?? {},
          overrides: r.overrides ?? {},
          contextKeys: r.context_keys ?? [],
          deliveryState: r.delivery_state ?? null,
          traceContext: r.trace_context,
          steps: r.outputs ?? {},
          preferences: preferenceLevels(r.preferences),
      };
    });
  }

  requeueStalled(idleMs: number): Promise<{ events: number; notifications: number }> {
    return inTransaction(this.pool, async (client) => {
      // Each sweep marks what it re-queues as touched, so other processes' sweeps skip it for idleMs.
      const events = await client.query<{ id: string }>(
        `WITH stalled AS (
           SELECT id FROM events
           WHERE status = 'fanning_out' AND COALESCE((fanout_cursor->>'at')::timestamptz, created_at) < now() - make_interval(secs => $1 / 1000.0)
           ORDER BY created_at LIMIT 1000 FOR UPDATE SKIP LOCKED)
         UPDATE events e SET fanout_cursor = jsonb_set(COALESCE(e.fanout_cursor, '{}'), '{at}', to_jsonb(now()))
         FROM stalled WHERE e.id = stalled.id RETURNING e.id`,
        [idleMs],
      );
      const jobs = await client.query<{ notification_id: string }>(
        `WITH stalled AS (
           SELECT id FROM jobs
           WHERE (status IN ('queued', 'delayed') AND run_at < now() - make_interval(secs => $1 / 1000.0) AND updated_at < now() - make_interval(secs => $1 / 1000.0))
              OR (status = 'running' AND updated_at < now() - interval '${LEASE}')
           LIMIT 50000 FOR UPDATE SKIP LOCKED)
         UPDATE jobs j SET updated_at = now() FROM stalled WHERE j.id = stalled.id AND j.status <> 'running'
         RETURNING j.notification_id`,
        [idleMs],
      );
      // Jobs whose step or subscriber was deleted can never run: cancel them instead of retrying forever.
      await client.query(
        `UPDATE jobs j SET status = 'canceled', updated_at = now()
         WHERE j.status IN ('queued', 'delayed', 'running')
           AND (NOT EXISTS (SELECT 1 FROM workflow_steps ws WHERE ws.id = j.workflow_step_id)
             OR NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.id = j.subscriber_id))`,
      );
      // Running jobs past their lease are claimable as they are; their notifications are queued too.
      const expired = await client.query<{ notification_id: string }>(
        `SELECT notification_id FROM jobs WHERE status = 'running' AND updated_at < now() - interval '${LEASE}' LIMIT 50000`,
      );
      const notificationIds = [...new Set([...jobs.rows, ...expired.rows].map((r) => r.notification_id))];
      await this.queue.enqueueIn(client, [...fanoutWork(events.rows.map((e) => e.id)), ...stepsWork(notificationIds)]);
      return { events: events.rows.length, notifications: notificationIds.length };
    });
  }

  async record(outcomes: JobOutcome[]): Promise<string[]> {
    if (!outcomes.length) return [];
    const { due, later } = await this.recordOrFail(outcomes);
    // Work due later is queued to start then (lost with a crash, the recovery sweep queues it again);
    // work due now continues in this worker. Outside the fallback below: the rows are committed, and
    // recording them again would overwrite a step that runs again later.
    if (later.length) await this.queue.enqueue(later);
    return due;
  }

  private async recordOrFail(outcomes: JobOutcome[]): Promise<{ due: string[]; later: QueuedWork[] }> {
    try {
      return await this.recordBatch(outcomes);
    } catch (error) {
      // Messages may already be out: never leave the batch to be re-sent because one outcome cannot
      // be stored. Record one by one; an outcome that still fails is recorded as a failed step.
      if (outcomes.length === 1) {
        const [o] = outcomes;
        return this.recordBatch([{ job: o.job, status: 'failed', halt: true, details: [{ status: 'Failed', source: 'Internal', detail: `could not record the step result: ${(error as Error).message}` }] }]);
      }
      const all = { due: [] as string[], later: [] as QueuedWork[] };
      for (const o of outcomes) {
        const one = await this.recordOrFail([o]);
        all.due.push(...one.due);
        all.later.push(...one.later);
      }
      return all;
    }
  }

  async inAppStates(environmentId: string, notificationId: string): Promise<Record<string, InAppMessageState>> {
    if (!isUuid(notificationId)) return {};
    const { rows } = await this.pool.query<{ step_id: string; is_seen: boolean; is_read: boolean; first_seen_at: Date | null; read_at: Date | null }>(
      `SELECT j.step_id, m.is_seen, m.is_read, m.first_seen_at, m.read_at FROM jobs j JOIN messages m ON m.job_id = j.id
       WHERE j.notification_id = $2 AND j.environment_id = $1 AND m.channel = 'in_app'`,
      [environmentId, notificationId],
    );
    return Object.fromEntries(rows.map((r) => [r.step_id, { seen: r.is_seen, read: r.is_read, lastSeenDate: r.first_seen_at, lastReadDate: r.read_at }]));
  }

  async heartbeat(jobIds: string[]): Promise<void> {
    if (jobIds.length) await this.pool.query("UPDATE jobs SET updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'running'", [jobIds]);
  }

  private async recordBatch(outcomes: JobOutcome[]): Promise<{ due: string[]; later: QueuedWork[] }> {
    const jobs = outcomes.map((o) => ({
      id: o.job.jobId,
      status: o.status,
      provider_id: o.providerId ?? null,
      output: o.output ?? null,
      attempts: o.job.attempts,
      leased: o.job.leased,
      rerun_at: o.status === 'delayed' ? rerunAt(o).toISOString() : null,
      delivery_state: o.deliveryState ?? null,
      digest: o.digest ?? null,
      schedule_extensions: o.scheduleExtensions ?? undefined,
    }));
    const details = outcomes.flatMap((o) =>
      o.details.map((d) => ({
        ord: 0,
        environment_id: o.job.environmentId,
        job_id: o.job.jobId,
        notification_id: o.job.notificationId,
        status: d.status,
        source: d.source,
        detail: d.detail,
        provider_id: d.providerId ?? null,
        raw: d.raw ?? null,
        is_retry: o.job.attempts > 1,
      })),
    );
    details.forEach((d, i) => (d.ord = i));
    const messages = messageRows(outcomes);
    const halted = outcomes.filter((o) => o.halt && o.status !== 'delayed').map((o) => o.job.notificationId);
    const advancing = outcomes
      .filter((o) => !o.halt && o.status !== 'delayed')
      .map((o) => ({ notification_id: o.job.notificationId, position: o.job.step.position, run_at: o.nextRunAt?.toISOString() ?? null }));
    // One statement, so one implicit transaction: a crash leaves all of it or none of it.
    const { rows } = await this.pool.query<{ notification_id: string; status: string; run_at: Date }>(
      recordStatement([jsonParam(jobs), jsonParam(details), jsonParam(messages), halted, jsonParam(advancing)]),
    );
    const later = new Map<number, string[]>();
    const reruns = outcomes.filter((o) => o.status === 'delayed').map((o) => ({ notification_id: o.job.notificationId, run_at: rerunAt(o) }));
    for (const r of [...rows.filter((r) => r.status === 'delayed'), ...reruns]) {
      const at = new Date(r.run_at).getTime();
      later.set(at, [...(later.get(at) ?? []), r.notification_id]);
    }
    return {
      due: rows.filter((r) => r.status === 'queued').map((r) => r.notification_id),
      later: [...later].flatMap(([at, ids]) => stepsWork(ids, new Date(at))),
    };
  }
}
