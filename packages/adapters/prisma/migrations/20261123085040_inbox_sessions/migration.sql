-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "secret_encrypted" TEXT;

-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "cors_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "inbox_hmac" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "public_identifier" TEXT NOT NULL DEFAULT ('pk_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text));

-- CreateIndex
CREATE UNIQUE INDEX "environments_public_identifier_key" ON "environments"("public_identifier");
