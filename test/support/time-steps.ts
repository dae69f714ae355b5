import type { TestService } from './service';
import { queryDatabase } from './workflow-rows';

/** Sends `count` triggers with at most `parallel` in flight, spread over `services` (round robin). */
export async function triggerMany(services: TestService[], count: number, body: (i: number) => Record<string, unknown>, parallel = 64): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const res = await services[i % services.length].request('/v1/events/trigger', { method: 'POST', json: body(i) });
      if (res.status !== 201) throw new Error(`trigger ${i} answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

export interface JobRow {
  transaction_id: string;
  notification_id: string;
  step_id: string;
  status: string;
  output: Record<string, unknown> | null;
  digest: Record<string, unknown> | null;
  details: string[];
}

/** The jobs of a workflow's notifications for one subscriber, with their execution details in order. */
export function jobsOf(svc: TestService, workflowId: string, subscriberId: string): Promise<JobRow[]> {
  return queryDatabase<JobRow>(
    svc.databaseUrl,
    `SELECT n.transaction_id, n.id AS notification_id, j.step_id, j.status, j.output, j.digest,
            ARRAY(SELECT d.detail FROM execution_details d WHERE d.job_id = j.id ORDER BY d.seq) AS details
     FROM jobs j JOIN notifications n ON n.id = j.notification_id JOIN workflows w ON w.id = n.workflow_id
     JOIN subscribers s ON s.id = n.subscriber_id
     WHERE w.workflow_id = $1 AND s.subscriber_id = $2 ORDER BY n.created_at, j.position`,
    [workflowId, subscriberId],
  );
}

export const unfinished = (rows: JobRow[]) => rows.some((r) => ['pending', 'queued', 'running', 'delayed'].includes(r.status));

/** Emails the development outbox holds for a subscriber, oldest first. */
export async function outboxEmails(svc: TestService, subscriberId: string): Promise<Array<{ subject: string; body: string; transactionId: string }>> {
  const res = await svc.request(`/v1/outbox?channel=email&subscriberId=${encodeURIComponent(subscriberId)}&limit=100`);
  const { data } = (await res.json()) as { data: Array<{ subject: string; body: string; transactionId: string; createdAt: string }> };
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Moves the clock of a workflow's open digests to their end: once all `events` of the workflow
 * have joined a digest (merged, or leading one), each open window closes now and its leader is due
 * now. So a test of exactness under load need not hold a window long enough for a slow machine.
 */
export async function closeDigestsWhenJoined(svc: TestService, workflowId: string, events: number): Promise<void> {
  const joined = async () => {
    const [{ n }] = await queryDatabase<{ n: number }>(
      svc.databaseUrl,
      `SELECT count(*)::int AS n FROM jobs j JOIN notifications n ON n.id = j.notification_id JOIN workflows w ON w.id = n.workflow_id
       WHERE w.workflow_id = $1 AND j.type = 'digest' AND j.digest_window_id IS NOT NULL`,
      [workflowId],
    );
    return n >= events;
  };
  const deadline = Date.now() + 120_000;
  while (!(await joined())) {
    if (Date.now() > deadline) throw new Error(`the ${events} events of ${workflowId} did not all join a digest`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await queryDatabase(
    svc.databaseUrl,
    `WITH open AS (
       UPDATE digest_windows dw SET closes_at = now() FROM workflow_steps ws JOIN workflows w ON w.id = ws.workflow_id
       WHERE dw.workflow_step_id = ws.id AND w.workflow_id = $1 AND dw.status = 'open' RETURNING dw.leader_job_id)
     UPDATE jobs SET run_at = now() WHERE id IN (SELECT leader_job_id FROM open) AND status = 'delayed'`,
    [workflowId],
  );
}
