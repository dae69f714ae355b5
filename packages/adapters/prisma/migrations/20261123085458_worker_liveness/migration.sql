-- AlterTable
ALTER TABLE "events" ADD COLUMN     "fanout_owner" UUID;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "lease_owner" UUID;

-- CreateTable
CREATE TABLE "worker_processes" (
    "id" UUID NOT NULL,
    "lock_key" SERIAL NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "worker_processes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "worker_processes_lock_key_key" ON "worker_processes"("lock_key");
