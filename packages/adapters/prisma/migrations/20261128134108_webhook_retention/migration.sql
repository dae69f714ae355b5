-- Retention covers outbound webhooks: the purge walks each environment's webhook events by day like
-- its notifications and events, removing those with no delivery pending together with their
-- deliveries and attempts, and counts them in the day's record.

-- AlterTable
ALTER TABLE "retention_days" ADD COLUMN     "webhook_attempts" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "webhook_deliveries" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "webhook_events" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "webhook_events_at" TIMESTAMPTZ(3),
ADD COLUMN     "webhook_events_id" UUID;

-- CreateIndex
-- One entry per event written, and events are written only where an endpoint takes them.
CREATE INDEX "webhook_events_environment_id_created_at_idx" ON "webhook_events"("environment_id", "created_at");
