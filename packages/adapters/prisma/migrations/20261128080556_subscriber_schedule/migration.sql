-- AlterTable
ALTER TABLE "subscribers" ADD COLUMN     "schedule" JSONB;
