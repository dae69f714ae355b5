import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../entities/delivery';
import type { DigestEntry, DigestEvent, DigestPlace, DigestRepository } from '../ports/digest-repository';

interface DigestRow {
  id: string;
  stepId: string;
  subscriberId: string;
  digestKey: string;
  leaderJobId: string;
  leaderNotificationId: string;
  status: 'open' | 'closed';
  closesAt: Date;
  lastEventAt: Date;
}

/** An instant as PostgreSQL writes a timestamptz into JSON in a UTC session: `2030-01-01T00:01:00.12+00:00`. */
const postgresTime = (at: Date) => at.toISOString().replace(/\.?0*Z$/, '+00:00');

/** What a digest shows of a job's notification: its trigger's transaction, time and payload. */
export interface DigestedNotification {
  transactionId: string;
  createdAt: Date;
  payload: JsonObject;
}

/**
 * The DigestRepository double: digests and each job's place in memory, with the SQL adapter's rules
 * (one open digest per subscriber, step and key; a due leader closes it; a backoff digest closes at
 * once unless an event of its key came after its backoff start). `notifications` are what delivery
 * wrote for the jobs. `digest-repository-contract.ts` holds it to the SQL adapter's behaviour.
 */
export class InMemoryDigestRepository implements DigestRepository {
  readonly digests: DigestRow[] = [];
  /** jobId -> digest id and notification id. */
  readonly placed = new Map<string, { digestId: string; notificationId: string }>();
  readonly notifications = new Map<string, DigestedNotification>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  async enter(entries: DigestEntry[]): Promise<DigestPlace[]> {
    const now = this.now();
    for (const e of entries) {
      if (this.placed.has(e.jobId)) continue;
      const same = (d: DigestRow) => d.stepId === e.workflowStepId && d.subscriberId === e.subscriberId && d.digestKey === e.digestKey;
      let digest = this.digests.find((d) => same(d) && d.status === 'open');
      if (digest) digest.lastEventAt = now;
      else {
        const quiet = e.backoffSince !== null && !this.digests.some((d) => same(d) && d.lastEventAt > e.backoffSince!);
        digest = {
          id: randomUUID(),
          stepId: e.workflowStepId,
          subscriberId: e.subscriberId,
          digestKey: e.digestKey,
          leaderJobId: e.jobId,
          leaderNotificationId: e.notificationId,
          status: 'open',
          closesAt: quiet ? now : e.closesAt,
          lastEventAt: now,
        };
        this.digests.push(digest);
      }
      this.placed.set(e.jobId, { digestId: digest.id, notificationId: e.notificationId });
    }
    return entries.map((e): DigestPlace => {
      const digest = this.digests.find((d) => d.id === this.placed.get(e.jobId)!.digestId)!;
      if (digest.leaderJobId !== e.jobId) return { role: 'member', digestId: digest.id, leaderNotificationId: digest.leaderNotificationId };
      if (digest.status === 'open' && digest.closesAt <= this.now()) digest.status = 'closed';
      const { id: digestId, closesAt } = digest;
      return digest.status === 'open' ? { role: 'leader', digestId, closesAt, status: 'open' } : { role: 'leader', digestId, closesAt, status: 'closed', events: this.events(digestId) };
    });
  }

  /** The digest's events, oldest first (ties by notification id). */
  private events(digestId: string): DigestEvent[] {
    const members = [...this.placed.values()].filter((p) => p.digestId === digestId);
    return members
      .map(({ notificationId: id }) => ({ id, ...this.notifications.get(id)! }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(({ id, transactionId, createdAt, payload }) => ({ id, transactionId, time: postgresTime(createdAt), payload: structuredClone(payload) }));
  }
}
