/**
 * SQL: `notification.completed` for notifications written with nothing left to run, their one
 * remaining step run inline (no step after it, or it halted the rest). No job of theirs is ever
 * recorded, so the step recorder (webhook-job-events.ts) never completes them: the statement that
 * writes them does, once each, in the same transaction. Used by the trigger accept statement and the
 * topic fan-out's chunk insert.
 *
 * `done`: a query of those notifications with the columns notification_id, environment_id,
 * transaction_id, subscriber_id (the subscriber's own id), workflow_id (the workflow's identifier)
 * and inline_status.
 *
 * The endpoint check is a one-time filter, as in the step recorder: while no endpoint is enabled,
 * `done` is not evaluated (the capture switch also keeps webhook_events' relay trigger off then,
 * so the empty insert calls nothing: migration webhook_inline_completions).
 */
export function inlineCompletions(done: string): string {
  return `INSERT INTO webhook_events (environment_id, type, ordering_key, data)
  SELECT c.environment_id, 'notification.completed', c.notification_id::text,
    jsonb_build_object('notificationId', c.notification_id, 'transactionId', c.transaction_id, 'subscriberId', c.subscriber_id,
      'workflowId', c.workflow_id, 'status', CASE WHEN c.inline_status = 'failed' THEN 'failed' ELSE 'completed' END)
  FROM (${done}) c
  WHERE (SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled)) AND herald_webhook_wanted(c.environment_id, 'notification.completed')
  ORDER BY c.notification_id`;
}
