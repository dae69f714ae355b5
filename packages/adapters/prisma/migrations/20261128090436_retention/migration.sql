-- Retention: each environment keeps its delivery history (notifications with their jobs, execution
-- details, messages and digest windows; events) for `retention_days` (null: the service default),
-- and a scheduled purge removes what is older, one UTC day at a time, recording its progress here.

-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "retention_days" INTEGER;

-- The purge walks an environment's events by day: (environment_id, created_at) replaces
-- (status, created_at), whose only readers look for events still fanning out (the stalled-work
-- sweep and the backlog figure); a partial index serves them. A trigger still adds one entry to one
-- such index; an event with topics also has one in the partial index while it fans out.
-- DropIndex
DROP INDEX "events_status_created_at_idx";

-- CreateIndex
CREATE INDEX "events_environment_id_created_at_idx" ON "events"("environment_id", "created_at");
CREATE INDEX "events_fanning_out_idx" ON "events"("created_at") WHERE "status" = 'fanning_out';

-- CreateTable
CREATE TABLE "retention_days" (
    "environment_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'purging',
    "notifications" BIGINT NOT NULL DEFAULT 0,
    "jobs" BIGINT NOT NULL DEFAULT 0,
    "execution_details" BIGINT NOT NULL DEFAULT 0,
    "messages" BIGINT NOT NULL DEFAULT 0,
    "digest_windows" BIGINT NOT NULL DEFAULT 0,
    "events" BIGINT NOT NULL DEFAULT 0,
    "notifications_at" TIMESTAMPTZ(3),
    "notifications_id" UUID,
    "events_at" TIMESTAMPTZ(3),
    "events_id" UUID,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "purged_at" TIMESTAMPTZ(3),

    CONSTRAINT "retention_days_pkey" PRIMARY KEY ("environment_id","day")
);

-- CreateTable
CREATE TABLE "retention_kept" (
    "environment_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "row_id" UUID NOT NULL,

    CONSTRAINT "retention_kept_pkey" PRIMARY KEY ("environment_id","day","source","row_id")
);

-- AddForeignKey
ALTER TABLE "retention_days" ADD CONSTRAINT "retention_days_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_kept" ADD CONSTRAINT "retention_kept_environment_id_day_fkey" FOREIGN KEY ("environment_id", "day") REFERENCES "retention_days"("environment_id", "day") ON DELETE CASCADE ON UPDATE CASCADE;
