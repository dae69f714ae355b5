-- CreateTable
CREATE TABLE "send_rate_slots" (
    "integration_id" UUID NOT NULL,
    "next_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "send_rate_slots_pkey" PRIMARY KEY ("integration_id")
);
