-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "bridge_key_hash" TEXT,
ADD COLUMN     "bridge_url" TEXT;

-- AlterTable
ALTER TABLE "workflow_steps" ADD COLUMN     "schemas" JSONB;

-- AlterTable
ALTER TABLE "workflows" ALTER COLUMN "origin" SET DEFAULT 'novu-cloud';

-- Until now only the API wrote workflows, yet they reported the origin of code-defined ones.
UPDATE "workflows" SET "origin" = 'novu-cloud' WHERE "origin" = 'external';
