-- The topic a fan-out reached a recipient through is kept as three columns (topic_id, topic_key,
-- subscription_id) rather than copied per recipient into "to", a topics document and two arrays:
-- about 220 of a fan-out notification's bytes, built once per recipient. The activity log derives
-- `to` and `topics` from them. Only the fan-out ever wrote topics, one per recipient (a subscriber
-- in several topics is taken once); a trigger's own recipients have none.

-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "subscription_id" UUID,
ADD COLUMN     "topic_id" UUID,
ADD COLUMN     "topic_key" TEXT;

-- Backfill: every fan-out notification keeps its topic and subscription; its stored "to" is the
-- one the activity log now derives.
UPDATE "notifications" SET
  "topic_id" = ("topics"->0->>'_topicId')::uuid,
  "topic_key" = "topic_keys"[1],
  "subscription_id" = ("subscription_ids"[1])::uuid,
  "to" = CASE WHEN "to" = jsonb_build_object('type', 'Topic', 'topicKey', "topic_keys"[1]) THEN NULL ELSE "to" END
WHERE cardinality("topic_keys") > 0;

-- AlterTable
ALTER TABLE "notifications" DROP COLUMN "subscription_ids",
DROP COLUMN "topic_keys",
DROP COLUMN "topics";
