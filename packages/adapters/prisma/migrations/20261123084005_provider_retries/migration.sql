-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "retry_policy" JSONB;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "delivery_state" JSONB;
