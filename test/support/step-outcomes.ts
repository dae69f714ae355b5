import { queryDatabase } from './workflow-rows';

export interface StepOutcome {
  step_id: string;
  status: string;
  provider_id: string | null;
  details: Array<{ status: string; detail: string; provider_id: string | null; is_retry: boolean; raw: string | null }>;
  message: { provider_id: string; provider_message_id: string | null; destination: unknown } | null;
}

/** Each job of a transaction with its execution details and message, once every job has finished; null before. */
export async function finishedSteps(databaseUrl: string, transactionId: string): Promise<StepOutcome[] | null> {
  const rows = await queryDatabase<StepOutcome>(
    databaseUrl,
    `SELECT j.step_id, j.status, j.provider_id,
       COALESCE((SELECT json_agg(json_build_object('status', d.status, 'detail', d.detail, 'provider_id', d.provider_id, 'is_retry', d.is_retry, 'raw', d.raw) ORDER BY d.seq)
         FROM execution_details d WHERE d.job_id = j.id), '[]') AS details,
       (SELECT json_build_object('provider_id', m.provider_id, 'provider_message_id', m.provider_message_id, 'destination', m.destination) FROM messages m WHERE m.job_id = j.id) AS message
     FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = $1 ORDER BY j.position`,
    [transactionId],
  );
  return rows.length && rows.every((r) => !['pending', 'queued', 'running', 'delayed'].includes(r.status)) ? rows : null;
}
