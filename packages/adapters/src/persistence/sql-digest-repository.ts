import type { DigestEntry, DigestEvent, DigestPlace, DigestRepository } from '@herald/domain';
import type { Pool } from 'pg';
import { jsonParam, prepared } from './sql-params';

// Places the slice's unplaced jobs in one statement. Per key, the first job's row opens a window;
// ON CONFLICT on the partial unique index (one OPEN window per step, subscriber and key) makes a
// job whose key already has an open window lock that row and join it instead. A close (below)
// that runs first makes the insert retry and find no open window, so the job opens the next one;
// one that runs later waits for this statement's lock and sees its jobs. A backoff window with no
// event of its key since backoff_since closes at once (its lone event passes straight through).
const JOIN = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(ord int, job_id uuid, notification_id uuid, environment_id uuid, subscriber_id uuid,
    workflow_step_id uuid, digest_key text, closes_at timestamptz, backoff_since timestamptz, metadata jsonb)
), fresh AS (
  SELECT i.* FROM input i JOIN jobs j ON j.id = i.job_id WHERE j.digest_window_id IS NULL
), keys AS (
  SELECT DISTINCT ON (workflow_step_id, subscriber_id, digest_key) * FROM fresh ORDER BY workflow_step_id, subscriber_id, digest_key, ord
), windows AS (
  INSERT INTO digest_windows AS w (environment_id, workflow_step_id, subscriber_id, digest_key, leader_job_id, leader_notification_id, status, closes_at, metadata)
  SELECT k.environment_id, k.workflow_step_id, k.subscriber_id, k.digest_key, k.job_id, k.notification_id, 'open',
    CASE WHEN k.backoff_since IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM digest_windows p WHERE p.workflow_step_id = k.workflow_step_id AND p.subscriber_id = k.subscriber_id
        AND p.digest_key = k.digest_key AND p.last_event_at > k.backoff_since) THEN now() ELSE k.closes_at END,
    k.metadata
  FROM keys k
  ON CONFLICT (workflow_step_id, subscriber_id, digest_key) WHERE status = 'open' DO UPDATE SET last_event_at = now()
  RETURNING w.id, w.workflow_step_id, w.subscriber_id, w.digest_key, w.leader_notification_id
), placed AS (
  UPDATE jobs j SET digest_window_id = w.id
  FROM fresh f JOIN windows w ON w.workflow_step_id = f.workflow_step_id AND w.subscriber_id = f.subscriber_id AND w.digest_key = f.digest_key
  WHERE j.id = f.job_id AND j.digest_window_id IS NULL
  RETURNING j.notification_id, w.leader_notification_id
)
UPDATE notifications n SET digested_notification_id = p.leader_notification_id
FROM placed p WHERE n.id = p.notification_id AND p.notification_id <> p.leader_notification_id`;

const PLACES = `
SELECT j.id AS job_id, w.id, w.leader_job_id = j.id AS leader, w.leader_notification_id, w.status, w.closes_at
FROM jobs j JOIN digest_windows w ON w.id = j.digest_window_id WHERE j.id = ANY($1::uuid[])`;

const CLOSE = `
UPDATE digest_windows SET status = 'closed', closed_at = now()
WHERE id = ANY($1::uuid[]) AND status = 'open' AND closes_at <= now() RETURNING id`;

// A separate statement after CLOSE, so it sees every join that committed before the close.
const EVENTS = `
WITH digested AS (
  SELECT m.digest_window_id AS window_id,
    jsonb_agg(jsonb_build_object('id', n.id, 'transactionId', n.transaction_id, 'time', n.created_at, 'payload', e.payload) ORDER BY n.created_at, n.id) AS events
  FROM jobs m JOIN notifications n ON n.id = m.notification_id JOIN events e ON e.id = n.event_id
  WHERE m.digest_window_id = ANY($1::uuid[]) GROUP BY m.digest_window_id
)
UPDATE jobs j SET digest = COALESCE(w.metadata, '{}') || jsonb_build_object('events', d.events)
FROM digested d JOIN digest_windows w ON w.id = d.window_id
WHERE j.id = w.leader_job_id
RETURNING w.id, d.events`;

const joinStatement = prepared('herald-digest-join', JOIN);

interface PlaceRow {
  job_id: string;
  id: string;
  leader: boolean;
  leader_notification_id: string;
  status: string;
  closes_at: Date;
}

/** Digests in PostgreSQL: digest_windows rows, and each job's window in jobs.digest_window_id. */
export class SqlDigestRepository implements DigestRepository {
  constructor(private readonly pool: Pool) {}

  async enter(entries: DigestEntry[]): Promise<DigestPlace[]> {
    if (!entries.length) return [];
    const input = entries.map((e, ord) => ({
      ord,
      job_id: e.jobId,
      notification_id: e.notificationId,
      environment_id: e.environmentId,
      subscriber_id: e.subscriberId,
      workflow_step_id: e.workflowStepId,
      digest_key: e.digestKey,
      closes_at: e.closesAt.toISOString(),
      backoff_since: e.backoffSince?.toISOString() ?? null,
      metadata: e.metadata,
    }));
    await this.pool.query(joinStatement([jsonParam(input)]));
    const jobIds = entries.map((e) => e.jobId);
    const { rows } = await this.pool.query<PlaceRow>(PLACES, [jobIds]);
    const leading = rows.filter((r) => r.leader);
    const open = leading.filter((r) => r.status === 'open').map((r) => r.id);
    const closed = new Set(leading.filter((r) => r.status === 'closed').map((r) => r.id));
    if (open.length) (await this.pool.query<{ id: string }>(CLOSE, [open])).rows.forEach((r) => closed.add(r.id));
    const events = new Map<string, DigestEvent[]>();
    if (closed.size) {
      const result = await this.pool.query<{ id: string; events: DigestEvent[] }>(EVENTS, [[...closed]]);
      for (const r of result.rows) events.set(r.id, r.events);
    }
    const byJob = new Map(rows.map((r) => [r.job_id, r]));
    return entries.map((e): DigestPlace => {
      const r = byJob.get(e.jobId);
      if (!r) throw new Error(`job ${e.jobId} was not placed in a digest`);
      if (!r.leader) return { role: 'member', digestId: r.id, leaderNotificationId: r.leader_notification_id };
      const closesAt = new Date(r.closes_at);
      return closed.has(r.id) ? { role: 'leader', digestId: r.id, closesAt, status: 'closed', events: events.get(r.id) ?? [] } : { role: 'leader', digestId: r.id, closesAt, status: 'open' };
    });
  }
}
