import { wholeRange, type AcceptOutcome, type TriggerAcceptance } from '@herald/domain';
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { fanoutWork, stepsWork, type PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { upsertSubscribers } from './prisma-subscriber-repository';
import { notificationShape } from './delivery-rows';
import { jsonParam, prepared } from './sql-params';
import { inTransaction } from './transaction';

/** Triggers accepted by one statement at most. */
const MAX_BATCH = 200;
/** Transactions in flight at once; further triggers wait and are accepted together by the next one. */
const MAX_IN_FLIGHT = 4;

// Accepts a batch of triggers in one statement. Per trigger: the event (unique per transactionId; a
// reused one, or one repeated in the batch, is not inserted), any subscriber named by id that does
// not exist yet, one notification per recipient and one job per active step. Plus each workflow's
// lastTriggeredAt, at most once a second so concurrent triggers rarely wait on that row's lock.
const ACCEPT_BATCH = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(idx int, id uuid, environment_id uuid, workflow_id uuid, transaction_id text, payload jsonb,
    overrides jsonb, "to" jsonb, actor jsonb, tenant jsonb, context_keys text[], status text, fanout_cursor jsonb, channels text[],
    tags text[], severity text, critical boolean, subscriber_ids text[], steps jsonb, trace_context text)
), ev AS (
  INSERT INTO events (id, environment_id, workflow_id, transaction_id, payload, overrides, "to", actor, tenant, context_keys, status, fanout_cursor, fanned_out_at, trace_context)
  SELECT id, environment_id, workflow_id, transaction_id, payload, overrides, "to", actor, tenant, context_keys, status, fanout_cursor,
         CASE WHEN status = 'fanned_out' THEN now() END, trace_context
  FROM input ORDER BY idx
  ON CONFLICT (environment_id, transaction_id) DO NOTHING
  RETURNING id, environment_id, transaction_id
), acc AS (
  SELECT DISTINCT ON (i.environment_id, i.transaction_id) i.*, ev.id AS event_id
  FROM input i JOIN ev ON ev.environment_id = i.environment_id AND ev.transaction_id = i.transaction_id
  ORDER BY i.environment_id, i.transaction_id, i.idx
), wanted AS (
  SELECT acc.event_id, acc.environment_id, sid FROM acc CROSS JOIN LATERAL unnest(acc.subscriber_ids) AS sid
), created AS (
  -- Missing subscribers are created; one committed by another transaction meanwhile is invisible to
  -- this statement's snapshot, so the no-op DO UPDATE returns it instead of silently skipping it.
  INSERT INTO subscribers (environment_id, subscriber_id)
  SELECT DISTINCT w.environment_id, w.sid FROM wanted w
  WHERE NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.environment_id = w.environment_id AND s.subscriber_id = w.sid)
  ON CONFLICT (environment_id, subscriber_id) DO UPDATE SET subscriber_id = EXCLUDED.subscriber_id
  RETURNING id, environment_id, subscriber_id
), recipients AS (
  SELECT w.event_id, s.id, s.subscriber_id FROM wanted w
  JOIN subscribers s ON s.environment_id = w.environment_id AND s.subscriber_id = w.sid
  UNION ALL
  SELECT w.event_id, c.id, c.subscriber_id FROM wanted w
  JOIN created c ON c.environment_id = w.environment_id AND c.subscriber_id = w.sid
), notif AS (
  INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, payload, "to", tags, severity, critical, context_keys)
  SELECT acc.environment_id, acc.event_id, acc.workflow_id, r.id, acc.transaction_id, acc.channels, acc.payload,
         jsonb_build_object('subscriberId', r.subscriber_id), acc.tags, acc.severity, acc.critical, acc.context_keys
  FROM recipients r JOIN acc ON acc.event_id = r.event_id
  RETURNING id, environment_id, subscriber_id, event_id
), jobs AS (
  INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
  SELECT n.environment_id, n.id, n.subscriber_id, st.id, st.step_id, st.type, st.position, CASE WHEN st.ord = 0 THEN 'queued' ELSE 'pending' END
  FROM notif n JOIN acc ON acc.event_id = n.event_id
  CROSS JOIN LATERAL jsonb_to_recordset(acc.steps) AS st(id uuid, step_id text, type text, position int, ord int)
), touched AS (
  UPDATE workflows SET last_triggered_at = now()
  WHERE id IN (SELECT workflow_id FROM acc) AND (last_triggered_at IS NULL OR last_triggered_at < now() - interval '1 second')
)
SELECT acc.idx, acc.event_id, COALESCE(array_agg(n.id) FILTER (WHERE n.id IS NOT NULL), '{}') AS notification_ids
FROM acc LEFT JOIN notif n ON n.event_id = acc.event_id
GROUP BY acc.idx, acc.event_id`;

const acceptStatement = prepared('herald-accept-triggers', ACCEPT_BATCH);

interface Pending {
  acceptance: TriggerAcceptance;
  /** Chosen here, so a retry can tell this trigger's own earlier commit from someone else's event. */
  eventId: string;
  resolve(outcome: AcceptOutcome): void;
  reject(error: unknown): void;
}

function row({ acceptance: a, eventId }: Pick<Pending, 'acceptance' | 'eventId'>, idx: number) {
  const shape = notificationShape(a.workflow);
  const hasTopics = a.recipients.topics.length > 0;
  return {
    idx,
    id: eventId,
    environment_id: a.environmentId,
    workflow_id: a.workflow.id,
    transaction_id: a.transactionId,
    payload: a.payload,
    overrides: a.overrides,
    to: a.to ?? null,
    actor: a.actor,
    tenant: a.tenant,
    context_keys: a.contextKeys,
    status: hasTopics ? 'fanning_out' : 'fanned_out',
    fanout_cursor: hasTopics ? { topics: a.recipients.topics, lanes: wholeRange() } : null,
    channels: shape.channels,
    tags: a.workflow.tags,
    severity: a.workflow.severity,
    critical: a.workflow.critical,
    subscriber_ids: a.recipients.subscriberIds,
    steps: shape.steps,
    trace_context: a.traceContext ?? null,
  };
}

/**
 * Group commit for triggers: concurrent triggers are accepted together, one transaction (one
 * statement, one queue insert, one WAL flush) for many, so throughput grows with load while a lone
 * trigger still goes straight through. Each caller gets its own outcome only after the commit.
 */
export class TriggerBatcher {
  private readonly waiting: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
  ) {}

  accept(acceptance: TriggerAcceptance): Promise<AcceptOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ acceptance, eventId: randomUUID(), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.waiting.length) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.write(batch);
      batch.forEach((p, i) => p.resolve(outcomes[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // One bad trigger must not fail the others: accept them one by one to isolate it. The batch
      // may have committed after all (its COMMIT's reply lost): a trigger whose own event exists
      // is answered as accepted, not as a duplicate.
      for (const p of batch) await this.write([p], true).then(([o]) => p.resolve(o), p.reject);
    }
  }

  private write(batch: Pending[], retry = false): Promise<AcceptOutcome[]> {
    const acceptances = batch.map((p) => p.acceptance);
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ idx: number; event_id: string; notification_ids: string[] }>(acceptStatement([jsonParam(batch.map(row))]));
      const accepted = new Map(rows.map((r) => [r.idx, r]));
      const committedBefore = retry ? await this.ownEvents(client, batch.filter((_, idx) => !accepted.has(idx))) : new Map<string, number>();
      // Subscriber objects of accepted triggers only: an ignored trigger changes nothing.
      const upserts = new Map<string, TriggerAcceptance['upserts']>();
      acceptances.forEach((a, idx) => {
        if (accepted.has(idx) && a.upserts.length) upserts.set(a.environmentId, [...(upserts.get(a.environmentId) ?? []), ...a.upserts]);
      });
      for (const [environmentId, subscribers] of upserts) {
        await upsertSubscribers(client, environmentId, subscribers);
      }
      await this.queue.enqueueIn(client, [
        ...stepsWork(rows.flatMap((r) => r.notification_ids)),
        ...fanoutWork(rows.filter((r) => acceptances[r.idx].recipients.topics.length).map((r) => r.event_id)),
      ]);
      return acceptances.map((_, idx): AcceptOutcome => {
        const r = accepted.get(idx);
        if (r) return { accepted: true, eventId: r.event_id, notifications: r.notification_ids.length };
        const earlier = committedBefore.get(batch[idx].eventId);
        return earlier !== undefined ? { accepted: true, eventId: batch[idx].eventId, notifications: earlier } : { accepted: false, reason: 'duplicate_transaction' };
      });
    });
  }

  /** Of these triggers, the ones whose own event is already stored, with their notification counts. */
  private async ownEvents(client: PoolClient, batch: Pending[]): Promise<Map<string, number>> {
    if (!batch.length) return new Map();
    const { rows } = await client.query<{ id: string; notifications: number }>(
      'SELECT e.id, (SELECT count(*)::int FROM notifications n WHERE n.event_id = e.id) AS notifications FROM events e WHERE e.id = ANY($1::uuid[])',
      [batch.map((p) => p.eventId)],
    );
    return new Map(rows.map((r) => [r.id, r.notifications]));
  }
}
