-- DropIndex
DROP INDEX "execution_details_job_id_created_at_idx";

-- AlterTable
ALTER TABLE "execution_details" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "execution_details_job_id_seq_idx" ON "execution_details"("job_id", "seq");
