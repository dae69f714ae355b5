-- The activity log's transactionId filter goes through events (unique per environment and
-- transactionId) and notifications' (event_id, subscriber_id) key: one btree fewer to write for
-- every notification.
DROP INDEX "notifications_environment_id_transaction_id_idx";

-- Hand-written: the inbox's context filter indexes only messages that have context keys, so the
-- common message (no context) costs no GIN entry. Queries add `cardinality(context_keys) > 0`.
DROP INDEX "messages_context_keys_idx";
CREATE INDEX "messages_context_keys_idx" ON "messages" USING GIN ("context_keys") WHERE cardinality("context_keys") > 0;
