import { randomUUID } from 'node:crypto';
import { LEASED_STEP_TYPES } from '../entities/channel';
import type { DeliveryStep, ExecutionDetailDraft, JobStatus, JsonObject, MessageDraft } from '../entities/delivery';
import type { JobOutcome, JobRepository, RunnableJob } from '../ports/job-repository';
import { InMemoryStore } from './in-memory-store';

/** The lease a crashed worker's job waits out before another claims it (the SQL adapter's). */
export const LEASE_MS = 30_000;

interface JobRow {
  id: string;
  notificationId: string;
  /** Internal workflow step id and position at trigger time. */
  stepRowId: string;
  position: number;
  status: JobStatus;
  runAt: Date;
  attempts: number;
  updatedAt: Date;
  output: JsonObject | null;
  providerId: string | null;
  deliveryState: JsonObject | null;
  /** The worker process holding its lease (WorkerRegistry.workerId); null when none does. */
  leaseOwner: string | null;
}

interface NotificationRow {
  id: string;
  environmentId: string;
  workflowId: string;
  subscriberRowId: string;
  transactionId: string;
  payload: JsonObject;
  overrides: JsonObject;
  contextKeys: string[];
}

/** What a trigger writes for one recipient: the notification, before its jobs. */
export type NewNotification = Omit<NotificationRow, 'id'>;

/** The rows every process's view of the jobs shares (one database). */
class JobTables {
  readonly notifications = new Map<string, NotificationRow>();
  readonly jobs: JobRow[] = [];
  readonly byNotification = new Map<string, JobRow[]>();
  readonly details: Array<ExecutionDetailDraft & { jobId: string }> = [];
  /** As recorded; the subscriber's reading of an in-app one is set by `readMessage`. */
  readonly messages: Array<MessageDraft & { jobId: string; seenAt?: Date; readAt?: Date }> = [];
}

/**
 * The JobRepository double: notifications and their jobs in memory, run as the SQL adapter runs
 * them (the due job of each notification, leases for steps with side effects, the first result of
 * an attempt kept, the next step queued or scheduled, halts cancelling the rest). Workflows,
 * subscribers and preferences are the shared store's. Recorded details and messages are kept for
 * tests to read; no queue: `record` returns what is due now, as the port says.
 * `job-repository-contract.ts` holds it to the SQL adapter's behaviour.
 */
export class InMemoryJobRepository implements JobRepository {
  constructor(
    readonly store = new InMemoryStore(),
    private readonly now: () => Date = () => new Date(),
    /** The worker process whose leases these are; null leaves them to lapse. */
    readonly workerId: string | null = null,
    private readonly tables = new JobTables(),
  ) {}

  /** Another process's view of the same jobs. */
  forWorker(workerId: string): InMemoryJobRepository {
    return new InMemoryJobRepository(this.store, this.now, workerId, this.tables);
  }

  get notifications() {
    return this.tables.notifications;
  }

  get jobs() {
    return this.tables.jobs;
  }

  get details() {
    return this.tables.details;
  }

  get messages() {
    return this.tables.messages;
  }

  /** Writes a notification with one job per step of its workflow, the first queued, as a trigger does; its id. */
  notify(notification: NewNotification): string {
    const id = randomUUID();
    this.notifications.set(id, { ...structuredClone(notification), id });
    const workflow = this.store.workflows.get(notification.workflowId)!;
    const now = this.now();
    const rows: JobRow[] = [];
    this.tables.byNotification.set(id, rows);
    workflow.steps.forEach((step, position) => {
      rows.push({
        id: randomUUID(),
        notificationId: id,
        stepRowId: step.id,
        position,
        status: position === 0 ? 'queued' : 'pending',
        runAt: now,
        attempts: 0,
        updatedAt: now,
        output: null,
        providerId: null,
        deliveryState: null,
        leaseOwner: null,
      });
    });
    this.jobs.push(...rows);
    return id;
  }

  private of(notificationId: string): JobRow[] {
    return this.tables.byNotification.get(notificationId) ?? [];
  }

  private step(job: JobRow): DeliveryStep | undefined {
    const workflow = this.store.workflows.get(this.notifications.get(job.notificationId)!.workflowId);
    const position = workflow?.steps.findIndex((s) => s.id === job.stepRowId) ?? -1;
    if (!workflow || position < 0) return undefined;
    const { id, stepId, name, type, controlValues, skip } = workflow.steps[position];
    return structuredClone({ id, stepId, name, type, active: true, position, controlValues, skip: skip === false ? null : (skip as DeliveryStep['skip']), filters: [] });
  }

  async claim(notificationIds: string[]): Promise<RunnableJob[]> {
    const now = this.now();
    const claimed: RunnableJob[] = [];
    for (const id of new Set(notificationIds)) {
      const n = this.notifications.get(id);
      if (!n || !this.store.subscriberByRowId(n.subscriberRowId)) continue;
      const due = this.of(id).find(
        (j) =>
          this.step(j) &&
          ((['queued', 'delayed'].includes(j.status) && j.runAt <= now) || (j.status === 'running' && now.getTime() - j.updatedAt.getTime() > LEASE_MS)),
      );
      if (!due) continue;
      const step = this.step(due)!;
      // Leased by the step's type as it is now; other steps are only read.
      const leased = (LEASED_STEP_TYPES as readonly string[]).includes(step.type);
      if (leased) Object.assign(due, { status: 'running', attempts: due.attempts + 1, updatedAt: now, leaseOwner: this.workerId });
      claimed.push(this.runnable(n, due, step, leased ? due.attempts : due.attempts + 1, leased));
    }
    return claimed;
  }

  private runnable(n: NotificationRow, job: JobRow, step: DeliveryStep, attempts: number, leased: boolean): RunnableJob {
    const w = this.store.workflows.get(n.workflowId)!;
    const subscriber = this.store.subscriberByRowId(n.subscriberRowId)!;
    const level = (workflowId: string | null) => {
      const row = this.store.preferences.find((p) => p.subscriberRowId === subscriber.id && p.workflowId === workflowId);
      return row ? { enabled: row.enabled, channels: { ...row.channels } } : null;
    };
    const outputs = this.of(n.id).filter((j) => j.output !== null).map((j) => [this.step(j)?.stepId ?? '', j.output]);
    return structuredClone({
      jobId: job.id,
      notificationId: n.id,
      environmentId: n.environmentId,
      transactionId: n.transactionId,
      attempts,
      leased,
      step,
      workflow: { id: w.id, identifier: w.workflowId, name: w.name, active: w.active, critical: w.critical, severity: w.severity, origin: w.origin, tags: w.tags, data: w.data, preferences: w.preferences ?? {} },
      subscriber,
      schedule: this.store.schedules.get(subscriber.id) ?? null,
      payload: n.payload,
      overrides: n.overrides,
      contextKeys: n.contextKeys,
      deliveryState: job.deliveryState,
      traceContext: null,
      steps: Object.fromEntries(outputs),
      preferences: { global: level(null), perWorkflow: level(w.id) },
    });
  }

  async record(outcomes: JobOutcome[]): Promise<string[]> {
    const now = this.now();
    const due: string[] = [];
    for (const o of outcomes) {
      const job = this.of(o.job.notificationId).find((j) => j.id === o.job.jobId);
      // Only a job this attempt still holds: a leased one not claimed again since, an unleased one not recorded yet.
      const held = job && ['queued', 'delayed', 'running'].includes(job.status) && job.attempts === (o.job.leased ? o.job.attempts : o.job.attempts - 1);
      if (!job || !held) continue;
      if (o.status === 'delayed' && !o.rerunAt) throw new Error(`a delayed outcome needs rerunAt (job ${job.id})`);
      Object.assign(job, {
        status: o.status,
        attempts: o.job.attempts,
        providerId: o.providerId ?? job.providerId,
        output: o.output ? structuredClone(o.output) : job.output,
        runAt: o.status === 'delayed' ? o.rerunAt : job.runAt,
        deliveryState: o.deliveryState ? structuredClone(o.deliveryState) : job.deliveryState,
        updatedAt: now,
      });
      this.details.push(...o.details.map((d) => ({ ...structuredClone(d), jobId: job.id })));
      if (o.message) this.messages.push({ ...structuredClone(o.message), jobId: job.id });
      if (o.status === 'delayed') continue;
      const pending = this.of(job.notificationId).filter((j) => j.status === 'pending');
      if (o.halt) {
        pending.forEach((j) => Object.assign(j, { status: 'canceled', updatedAt: now }));
        continue;
      }
      const next = pending.filter((j) => j.position > o.job.step.position).sort((a, b) => a.position - b.position)[0];
      if (!next) continue;
      const runAt = o.nextRunAt ?? now;
      Object.assign(next, { status: runAt <= now ? 'queued' : 'delayed', runAt, updatedAt: now });
      if (next.status === 'queued') due.push(job.notificationId);
    }
    return due;
  }

  /** What the inbox does when the subscriber reads the message a job stored (seen, then read). */
  readMessage(jobId: string, at: Date = this.now()): void {
    const message = this.messages.find((m) => m.jobId === jobId);
    if (message) Object.assign(message, { seenAt: message.seenAt ?? at, readAt: at });
  }

  async inAppStates(environmentId: string, notificationId: string) {
    const n = this.notifications.get(notificationId);
    if (!n || n.environmentId !== environmentId) return {};
    const jobs = new Map(this.of(notificationId).map((j) => [j.id, j]));
    const stored = this.messages.filter((m) => m.channel === 'in_app' && jobs.has(m.jobId));
    return Object.fromEntries(
      stored.map((m) => [
        this.step(jobs.get(m.jobId)!)?.stepId ?? '',
        { seen: !!m.seenAt, read: !!m.readAt, lastSeenDate: m.seenAt ? new Date(m.seenAt) : null, lastReadDate: m.readAt ? new Date(m.readAt) : null },
      ]),
    );
  }

  async heartbeat(jobIds: string[]): Promise<void> {
    const now = this.now();
    for (const job of this.jobs) if (jobIds.includes(job.id) && job.status === 'running') job.updatedAt = now;
  }

  async requeueStalled(idleMs: number): Promise<{ events: number; notifications: number }> {
    const now = this.now();
    const idle = (at: Date, ms: number) => now.getTime() - at.getTime() > ms;
    const notifications = new Set<string>();
    for (const job of this.jobs) {
      if (!['queued', 'delayed'].includes(job.status) || !idle(job.runAt, idleMs) || !idle(job.updatedAt, idleMs)) continue;
      // Touched, so other sweeps skip it for idleMs.
      job.updatedAt = now;
      notifications.add(job.notificationId);
    }
    for (const job of this.jobs) {
      // A job whose step or subscriber is gone can never run.
      const gone = !this.step(job) || !this.store.subscriberByRowId(this.notifications.get(job.notificationId)!.subscriberRowId);
      if (['queued', 'delayed', 'running'].includes(job.status) && gone) Object.assign(job, { status: 'canceled', updatedAt: now });
      if (job.status === 'running' && idle(job.updatedAt, LEASE_MS)) notifications.add(job.notificationId);
    }
    return { events: 0, notifications: notifications.size };
  }
}
