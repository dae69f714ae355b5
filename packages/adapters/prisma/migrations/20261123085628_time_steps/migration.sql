-- AlterTable
ALTER TABLE "digest_windows" ADD COLUMN     "last_event_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "leader_notification_id" UUID,
ADD COLUMN     "metadata" JSONB;

-- CreateTable
CREATE TABLE "throttle_windows" (
    "environment_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "throttle_key" TEXT NOT NULL DEFAULT '',
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "throttle_windows_pkey" PRIMARY KEY ("workflow_id","subscriber_id","throttle_key","window_start")
);

-- CreateTable
CREATE TABLE "throttle_admissions" (
    "job_id" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "throttle_admissions_pkey" PRIMARY KEY ("job_id")
);

-- CreateIndex
CREATE INDEX "throttle_windows_window_start_idx" ON "throttle_windows"("window_start");

-- CreateIndex
CREATE INDEX "digest_windows_workflow_step_id_subscriber_id_digest_key_la_idx" ON "digest_windows"("workflow_step_id", "subscriber_id", "digest_key", "last_event_at");

-- The jobs merged into each digest window (hand-written: partial).
CREATE INDEX "jobs_digest_window_id_idx" ON "jobs"("digest_window_id") WHERE "digest_window_id" IS NOT NULL;
