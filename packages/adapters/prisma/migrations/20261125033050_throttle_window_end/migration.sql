-- Closed throttle windows and old admissions are purged on a schedule. A window keeps where it
-- closes (the step's length when it was counted: the step can change later); windows counted before
-- this migration have no end and are kept.
-- DropIndex
DROP INDEX "throttle_windows_window_start_idx";

-- AlterTable
ALTER TABLE "throttle_windows" ADD COLUMN     "window_end" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "throttle_admissions_created_at_idx" ON "throttle_admissions"("created_at");

-- CreateIndex
CREATE INDEX "throttle_windows_window_end_idx" ON "throttle_windows"("window_end");
