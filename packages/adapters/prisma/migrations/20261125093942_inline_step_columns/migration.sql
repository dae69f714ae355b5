-- A step run inline (a topic fan-out's or a trigger's first in-app step) is kept in columns rather
-- than as one JSON document per notification: that document was 376 of a fan-out notification's 848
-- bytes, written and parsed once per recipient. The one execution detail of a message stored in the
-- inbox is derived when read (inline_details is null); other outcomes keep their details as JSON.

-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "inline_details" JSONB,
ADD COLUMN     "inline_job_id" UUID,
ADD COLUMN     "inline_position" INTEGER,
ADD COLUMN     "inline_provider_id" TEXT,
ADD COLUMN     "inline_status" TEXT,
ADD COLUMN     "inline_step_id" TEXT,
ADD COLUMN     "inline_step_type" TEXT,
ADD COLUMN     "inline_workflow_step_id" UUID;

-- Backfill: every stored inline step keeps its details as they were.
UPDATE "notifications" SET
  "inline_job_id" = ("inline_job"->>'id')::uuid,
  "inline_workflow_step_id" = ("inline_job"->>'workflowStepId')::uuid,
  "inline_step_id" = "inline_job"->>'stepId',
  "inline_step_type" = "inline_job"->>'type',
  "inline_position" = ("inline_job"->>'position')::int,
  "inline_status" = "inline_job"->>'status',
  "inline_provider_id" = "inline_job"->>'providerId',
  "inline_details" = COALESCE("inline_job"->'details', '[]'::jsonb)
WHERE "inline_job" IS NOT NULL;

ALTER TABLE "notifications" DROP COLUMN "inline_job";
