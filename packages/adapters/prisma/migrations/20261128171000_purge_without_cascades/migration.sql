-- The retention purge deletes a notification's jobs and their execution details itself, by ids in
-- one statement; nothing else deletes notifications or jobs. These cascades only added a trigger
-- per deleted row that found nothing left (a third of the purge's time), and a key-share lock on
-- the notification per job inserted. Messages never had such keys.
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_notification_id_fkey";

ALTER TABLE "execution_details" DROP CONSTRAINT "execution_details_job_id_fkey";
