/**
 * SQL: the outbound webhook events of recorded step results, for the step recorder's statement
 * (sql-job-repository.ts): `workflow_step.failed` for each job that failed, then
 * `notification.completed` for each notification with nothing left to run (no next job, or halted):
 * failed if any of its steps failed, the one run inline included (its failure was told when it ran:
 * webhook-inline-events.ts).
 * Written in the recorder's own statement, so with the results or not at all; messages' events come
 * from the messages table's triggers (the migration outbound_webhooks).
 *
 * `updated`: the jobs recorded (id, notification_id, environment_id, status, step_id, type,
 * provider_id); `next`: the next job of each notification that goes on (notification_id);
 * `details`: the details' JSON parameter; `halted`: the parameter of halted notification ids.
 *
 * The gate is evaluated once per statement: while no endpoint is enabled, no row is looked at.
 */
export function webhookEvents(updated: string, next: string, details: string, halted: string): string {
  return `INSERT INTO webhook_events (environment_id, type, ordering_key, data)
  SELECT e.environment_id, e.type, e.notification_id::text,
    jsonb_build_object('notificationId', e.notification_id, 'transactionId', n.transaction_id, 'subscriberId', s.subscriber_id,
      'workflowId', w.workflow_id) || e.data
  FROM (
    SELECT u.environment_id, 'workflow_step.failed' AS type, u.notification_id, 1 AS ord,
      jsonb_build_object('jobId', u.id, 'stepId', u.step_id, 'stepType', u.type, 'providerId', u.provider_id,
        'error', (SELECT d.detail FROM jsonb_to_recordset(${details}::jsonb) AS d(job_id uuid, status text, detail text, ord int)
          WHERE d.job_id = u.id AND d.status = 'Failed' ORDER BY d.ord DESC LIMIT 1)) AS data
    FROM ${updated} u WHERE u.status = 'failed'
    UNION ALL
    SELECT u.environment_id, 'notification.completed', u.notification_id, 2,
      jsonb_build_object('status', CASE WHEN u.status = 'failed' OR EXISTS (SELECT 1 FROM jobs f WHERE f.notification_id = u.notification_id AND f.status = 'failed')
        OR EXISTS (SELECT 1 FROM notifications f WHERE f.id = u.notification_id AND f.inline_status = 'failed') THEN 'failed' ELSE 'completed' END)
    FROM ${updated} u
    WHERE u.status IN ('completed', 'skipped', 'failed')
      AND (u.notification_id = ANY(${halted}::uuid[]) OR NOT EXISTS (SELECT 1 FROM ${next} x WHERE x.notification_id = u.notification_id))
  ) e
  JOIN notifications n ON n.id = e.notification_id
  JOIN subscribers s ON s.id = n.subscriber_id
  JOIN workflows w ON w.id = n.workflow_id
  WHERE (SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled)) AND herald_webhook_wanted(e.environment_id, e.type)
  ORDER BY e.notification_id, e.ord`;
}
