-- Every notification's payload was a copy of its event's (both writers copied events.payload); it
-- is read from the event now, so dropping the copies loses nothing.
-- AlterTable
ALTER TABLE "notifications" DROP COLUMN "payload";
