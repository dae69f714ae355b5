import { type AcceptOutcome, type JobOutcome } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import { fanoutWork, stepsWork, type PgBossDeliveryQueue } from '../../queue/pg-boss-delivery-queue';
import { notificationShape } from '../delivery-rows';
import { upsertSubscribers } from '../subscriber-upsert';
import type { ChannelCredentialCipher } from '../../security/channel-credential-cipher';
import { inTransaction } from '../transaction';
import { acceptParams } from './accept-params';
import { acceptStatementFor, type AcceptedRow } from './accept-statement';
import type { BatchWriter } from './group-commit';
import { runInline, type InlineRun } from './inline-run';
import { subscriberKey, type PendingTrigger } from './pending-trigger';
import type { RememberedRecipients } from './remembered-recipients';
import { assertSeenAsStored, forgetRefused, SubscriberChanged } from './run-checks';
import { inTurn, objectsPerEnvironment } from './subscriber-objects';

/** Of a batch's triggers, those whose own event an earlier attempt committed: its notification count and those written with an inline step. */
interface OwnEvent {
  notifications: number;
  inline_ids: string[];
}

const OWN_EVENTS = `SELECT e.id, count(n.id)::int AS notifications, COALESCE(array_agg(n.id) FILTER (WHERE n.inline_job_id IS NOT NULL), '{}') AS inline_ids
       FROM events e LEFT JOIN notifications n ON n.event_id = e.id WHERE e.id = ANY($1::uuid[]) GROUP BY e.id`;

/** Whether a trigger's write can leave queue work: anything not run inline, or run inline with steps after it. */
function queuesWork({ acceptance: a }: PendingTrigger, ran: JobOutcome[] = []): boolean {
  if (a.recipients.topics.length || ran.length < a.recipients.subscriberIds.length) return true;
  return notificationShape(a.workflow).steps.length > 1 && ran.some((o) => !o.halt);
}

/**
 * Writes a batch of triggers: runs their inline steps, then accepts them with one statement. A batch
 * that leaves no queue work and no subscriber to upsert (its triggers run their only step inline)
 * commits that statement on its own, with no transaction around it; any other is one transaction:
 * the statement, the subscriber upserts, the check of what the steps saw, the queue insert.
 */
export class TriggerWrite implements BatchWriter<PendingTrigger, AcceptOutcome> {
  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
    private readonly remembered: RememberedRecipients,
    private readonly channels: ChannelCredentialCipher,
  ) {}

  writeBatch(batch: PendingTrigger[]): Promise<AcceptOutcome[]> {
    return this.write(batch);
  }

  /**
   * A trigger of a batch that failed, alone. The batch may have committed after all (its reply lost):
   * a trigger whose own event exists is answered as accepted, not as a duplicate. Written once more
   * without its inline step if the subscriber it ran on changed meanwhile.
   */
  async writeAlone(p: PendingTrigger): Promise<AcceptOutcome> {
    const [outcome] = await this.write([p], true).catch((error: unknown) =>
      error instanceof SubscriberChanged ? this.write([{ ...p, runInline: undefined }], true) : Promise.reject(error),
    );
    return outcome;
  }

  private async write(batch: PendingTrigger[], retry = false): Promise<AcceptOutcome[]> {
    const run = await runInline(this.pool, this.remembered, batch, this.channels);
    const params = acceptParams(batch, run);
    const setsChannels = ({ e }: { e: { channels?: unknown } }) => e.channels !== undefined;
    const statement = acceptStatementFor(params, run.ifMissing.some(setsChannels) || run.ifChanged.some(setsChannels));
    // A subscriber object that leaves its subscriber as stored needs no upsert: such a trigger is
    // written by one statement, as one naming its recipient by id is (Novu skips that update too).
    const upserts = ({ acceptance: a }: PendingTrigger) => a.upserts.some((u) => !run.leftAsStored.has(subscriberKey(a.environmentId, u.subscriberId)));
    if (!retry && batch.every((p, idx) => !upserts(p) && !queuesWork(p, run.outcomes.get(idx)))) return this.commitAlone(batch, statement, run);
    return this.commitInTransaction(batch, statement, run, retry);
  }

  private async commitAlone(batch: PendingTrigger[], statement: ReturnType<typeof acceptStatementFor>, run: InlineRun): Promise<AcceptOutcome[]> {
    const { rows } = await this.pool.query<AcceptedRow>(statement);
    forgetRefused(this.remembered, rows, run.outcomes, run.checks);
    // Only when a recipient changed (or was deleted and created again) since the step read it. Queued
    // after the commit: if this is lost, the stalled-work sweep queues the step.
    const queued = rows.flatMap((r) => r.queued_ids);
    if (queued.length) await this.queue.enqueue(stepsWork(queued));
    return this.acceptOutcomes(batch, rows, run.outcomes, new Map());
  }

  private commitInTransaction(batch: PendingTrigger[], statement: ReturnType<typeof acceptStatementFor>, run: InlineRun, retry: boolean): Promise<AcceptOutcome[]> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<AcceptedRow>(statement);
      forgetRefused(this.remembered, rows, run.outcomes, run.checks);
      const accepted = new Set(rows.map((r) => r.idx));
      const committedBefore = retry ? await this.ownEvents(client, batch.filter((_, idx) => !accepted.has(idx))) : new Map<string, OwnEvent>();
      // Subscriber objects of accepted triggers only: an ignored trigger changes nothing.
      for (const [environmentId, subscribers] of objectsPerEnvironment(batch, (idx) => accepted.has(idx))) {
        for (const round of inTurn(subscribers)) await upsertSubscribers(client, environmentId, round);
      }
      // The subscribers accepted triggers' steps ran on as objects would leave them must now be stored
      // so; otherwise the batch is accepted again one by one, each step on the stored row.
      await assertSeenAsStored(client, rows, accepted, run.seen);
      await this.queue.enqueueIn(client, [
        ...stepsWork(rows.flatMap((r) => r.queued_ids)),
        ...fanoutWork(rows.filter((r) => batch[r.idx].acceptance.recipients.topics.length).map((r) => r.event_id)),
      ]);
      return this.acceptOutcomes(batch, rows, run.outcomes, committedBefore);
    });
  }

  private acceptOutcomes(batch: PendingTrigger[], rows: AcceptedRow[], ran: Map<number, JobOutcome[]>, committedBefore: Map<string, OwnEvent>): AcceptOutcome[] {
    const accepted = new Map(rows.map((r) => [r.idx, r]));
    const written = (idx: number, ids: string[]) => ran.get(idx)?.filter((o) => ids.includes(o.job.notificationId)) ?? [];
    return batch.map((p, idx): AcceptOutcome => {
      const r = accepted.get(idx);
      if (r) return { accepted: true, eventId: r.event_id, notifications: r.notifications, inline: written(idx, r.inline_ids) };
      const earlier = committedBefore.get(p.eventId);
      // Committed by an earlier attempt with the same ids: its inline outcomes are reported now.
      return earlier ? { accepted: true, eventId: p.eventId, notifications: earlier.notifications, inline: written(idx, earlier.inline_ids) } : { accepted: false, reason: 'duplicate_transaction' };
    });
  }

  /** Of these triggers, the ones whose own event is already stored. */
  private async ownEvents(client: PoolClient, batch: PendingTrigger[]): Promise<Map<string, OwnEvent>> {
    if (!batch.length) return new Map();
    const { rows } = await client.query<OwnEvent & { id: string }>(OWN_EVENTS, [batch.map((p) => p.eventId)]);
    return new Map(rows.map((r) => [r.id, r]));
  }
}
