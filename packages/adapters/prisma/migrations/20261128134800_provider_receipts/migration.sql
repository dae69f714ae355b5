-- Provider delivery receipts: each receipt an integration's provider sent is applied once.
CREATE TABLE "provider_receipts" (
    "integration_id" UUID NOT NULL,
    "receipt_id" TEXT NOT NULL,
    "message_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "provider_receipts_pkey" PRIMARY KEY ("integration_id","receipt_id")
);

CREATE INDEX "provider_receipts_message_id_idx" ON "provider_receipts"("message_id");

-- A receipt goes with its message: retention removing the message removes it.
ALTER TABLE "provider_receipts" ADD CONSTRAINT "provider_receipts_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Receipts find their message by the id the provider answered the send with, within the integration.
CREATE INDEX "messages_integration_id_provider_message_id_idx" ON "messages"("integration_id", "provider_message_id");
