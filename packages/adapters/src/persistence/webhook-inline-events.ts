/**
 * SQL: the outbound webhook events of steps run inline, for the statements that write them (the
 * trigger accept statement and the topic fan-out's chunk insert): `workflow_step.failed` for a run
 * that failed, then `notification.completed` for a notification left with nothing to run (no step
 * after the inline one, or it halted the rest). No job of theirs is recorded, so the step recorder
 * (webhook-job-events.ts) never sees these: the statement that writes them does, once each, in the
 * same transaction.
 *
 * `runs`: a query of the runs, with the columns notification_id, environment_id, transaction_id,
 * subscriber_id (the subscriber's own id), workflow_id (the workflow's identifier), job_id, step_id,
 * step_type, status, provider_id, details (the stored inline_details, null when only the inbox's
 * one detail) and done (nothing left to run).
 *
 * The endpoint check is a one-time filter, as in the step recorder: while no endpoint is enabled,
 * `runs` is not evaluated, and the capture switch keeps webhook_events' relay trigger off, so the
 * empty insert calls nothing (migration webhook_inline_completions).
 */
export function inlineRunEvents(runs: string): string {
  return `INSERT INTO webhook_events (environment_id, type, ordering_key, data)
  SELECT c.environment_id, t.type, c.notification_id::text,
    jsonb_build_object('notificationId', c.notification_id, 'transactionId', c.transaction_id, 'subscriberId', c.subscriber_id,
      'workflowId', c.workflow_id) || t.data
  FROM (${runs}) c
  CROSS JOIN LATERAL (VALUES
    (1, 'workflow_step.failed', c.status = 'failed', jsonb_build_object('jobId', c.job_id, 'stepId', c.step_id, 'stepType', c.step_type,
      'providerId', c.provider_id, 'error', (SELECT d->>'detail' FROM jsonb_array_elements(c.details) WITH ORDINALITY AS x(d, ord)
        WHERE d->>'status' = 'Failed' ORDER BY x.ord DESC LIMIT 1))),
    (2, 'notification.completed', c.done, jsonb_build_object('status', CASE WHEN c.status = 'failed' THEN 'failed' ELSE 'completed' END))
  ) AS t(ord, type, happened, data)
  WHERE (SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled)) AND t.happened AND herald_webhook_wanted(c.environment_id, t.type)
  ORDER BY c.notification_id, t.ord`;
}
