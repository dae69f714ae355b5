-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "inline_job" JSONB;
