-- DropIndex
DROP INDEX "execution_details_notification_id_idx";

-- DropIndex
DROP INDEX "jobs_digest_window_id_idx";

-- DropIndex
DROP INDEX "jobs_environment_id_workflow_step_id_subscriber_id_status_idx";

-- DropIndex
DROP INDEX "messages_notification_id_idx";

-- DropIndex
DROP INDEX "notifications_context_keys_idx";

-- DropIndex
DROP INDEX "notifications_subscription_ids_idx";

-- DropIndex
DROP INDEX "notifications_topic_keys_idx";

-- Hand-written: array filters of the activity log index only rows that have values, so the common
-- row (no topic, no context) costs no GIN entry. Queries add `cardinality(col) > 0` to use them.
CREATE INDEX "notifications_topic_keys_idx" ON "notifications" USING GIN ("topic_keys") WHERE cardinality("topic_keys") > 0;
CREATE INDEX "notifications_subscription_ids_idx" ON "notifications" USING GIN ("subscription_ids") WHERE cardinality("subscription_ids") > 0;
CREATE INDEX "notifications_context_keys_idx" ON "notifications" USING GIN ("context_keys") WHERE cardinality("context_keys") > 0;
-- Claims and the recovery sweep only look at unfinished jobs.
DROP INDEX "jobs_status_run_at_idx";
CREATE INDEX "jobs_status_run_at_idx" ON "jobs"("status", "run_at") WHERE "status" IN ('queued', 'delayed', 'running');
