-- The receipts' index on messages no longer has an entry for messages without a provider message id.
-- Receipts look a message up by the id its provider answered the send with; inbox messages (and
-- any send whose provider answered none) have none, yet each paid an index entry: one more record
-- per recipient of every in-app fan-out. The lookup's `provider_message_id = $2` implies IS NOT NULL,
-- so the planner uses the partial index.

-- DropIndex
DROP INDEX "messages_integration_id_provider_message_id_idx";

-- CreateIndex
CREATE INDEX "messages_integration_id_provider_message_id_idx" ON "messages"("integration_id", "provider_message_id") WHERE "provider_message_id" IS NOT NULL;
