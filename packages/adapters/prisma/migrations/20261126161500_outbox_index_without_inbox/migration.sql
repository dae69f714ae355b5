-- The development outbox index no longer has an entry for in-app messages. The outbox lists only
-- outbound messages (its sinks are email and SMS providers), yet every inbox message paid for an
-- entry here: one of the twelve index and heap records a fan-out writes per recipient. The outbox
-- query says `channel <> 'in_app'`, so the planner can use the partial index.

-- DropIndex
DROP INDEX "messages_environment_id_provider_id_created_at_idx";

-- CreateIndex
CREATE INDEX "messages_environment_id_provider_id_created_at_idx" ON "messages"("environment_id", "provider_id", "created_at" DESC) WHERE "channel" <> 'in_app';
