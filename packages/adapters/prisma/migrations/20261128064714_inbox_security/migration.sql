-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "inbox_security_version" INTEGER NOT NULL DEFAULT 0,
ALTER COLUMN "inbox_hmac" SET DEFAULT true;

-- Production's Inbox now requires the subscriber HMAC, on existing installations too. The stored
-- false cannot tell the old default from an operator's explicit "off", so every Production
-- environment is turned on (the safe side; an operator turns it off again with
-- `pnpm herald environments set production --inbox-hmac off`). Raising the version ends the
-- subscriber tokens its unverified sessions were given.
UPDATE "environments" SET "inbox_hmac" = true, "inbox_security_version" = "inbox_security_version" + 1
WHERE "slug" = 'production' AND NOT "inbox_hmac";
