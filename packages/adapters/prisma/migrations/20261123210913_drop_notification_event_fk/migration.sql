-- DropForeignKey
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_event_id_fkey";
