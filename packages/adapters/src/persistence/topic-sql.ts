// Set-based statements of PrismaTopicRepository: each is one round trip.

/** Subscriber summary columns, prefixed so they do not clash with the subscription's. */
const SUBSCRIBER_COLUMNS = `s.id AS s_id, s.subscriber_id AS s_subscriber_id, s.first_name AS s_first_name,
  s.last_name AS s_last_name, s.email AS s_email, s.avatar AS s_avatar`;

/**
 * $1 environment, $2 topic key, $3 topic name (null keeps it), $4 preference rules (null keeps them),
 * $5 items [{subscriberId, identifier, name?, contextKeys}]. Upserts the topic and every subscription in
 * one statement; an identifier owned by another topic or subscriber is left alone (outcome 'conflict'),
 * an unknown subscriber is reported by the anti-join (outcome 'missing'). One row per item, in order;
 * a single row with a null item when there are no items.
 */
export const SUBSCRIBE = `
WITH topic AS (
  INSERT INTO topics (environment_id, key, name)
  VALUES ($1::uuid, $2, $3)
  ON CONFLICT (environment_id, key) DO UPDATE SET
    name = COALESCE(EXCLUDED.name, topics.name),
    updated_at = CASE WHEN EXCLUDED.name IS DISTINCT FROM topics.name AND EXCLUDED.name IS NOT NULL THEN now() ELSE topics.updated_at END
  RETURNING id, environment_id, key, name, created_at, updated_at
), input AS (
  SELECT t.n, t.e->>'subscriberId' AS sid, t.e->>'identifier' AS identifier, t.e->>'name' AS name,
         ARRAY(SELECT jsonb_array_elements_text(t.e->'contextKeys')) AS context_keys
  FROM jsonb_array_elements($5::jsonb) WITH ORDINALITY AS t(e, n)
), matched AS (
  SELECT i.*, ${SUBSCRIBER_COLUMNS}
  FROM input i JOIN subscribers s ON s.environment_id = $1::uuid AND s.subscriber_id = i.sid
), saved AS (
  INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier, name, context_keys, preferences)
  SELECT $1::uuid, topic.id, m.s_id, m.identifier, m.name, m.context_keys, COALESCE($4::jsonb, '[]'::jsonb)
  FROM matched m CROSS JOIN topic
  ON CONFLICT (environment_id, identifier) DO UPDATE SET
    name = COALESCE(EXCLUDED.name, topic_subscriptions.name),
    context_keys = EXCLUDED.context_keys,
    preferences = COALESCE($4::jsonb, topic_subscriptions.preferences),
    updated_at = now()
  WHERE topic_subscriptions.topic_id = EXCLUDED.topic_id AND topic_subscriptions.subscriber_id = EXCLUDED.subscriber_id
  RETURNING id, identifier, name, context_keys, preferences, created_at, updated_at
)
SELECT topic.id AS t_id, topic.environment_id AS t_environment_id, topic.key AS t_key, topic.name AS t_name,
       topic.created_at AS t_created_at, topic.updated_at AS t_updated_at,
       i.n, i.sid AS input_subscriber_id, i.identifier AS input_identifier, i.name AS input_name, i.context_keys AS input_context_keys,
       CASE WHEN m.s_id IS NULL THEN 'missing' WHEN sv.id IS NULL THEN 'conflict' ELSE 'saved' END AS outcome,
       sv.id, sv.identifier, sv.name, sv.context_keys, sv.preferences, sv.created_at, sv.updated_at,
       m.s_id, m.s_subscriber_id, m.s_first_name, m.s_last_name, m.s_email, m.s_avatar
FROM topic
LEFT JOIN input i ON true
LEFT JOIN matched m ON m.n = i.n
LEFT JOIN saved sv ON sv.identifier = i.identifier AND m.s_id IS NOT NULL
ORDER BY i.n`;

/**
 * $1 environment, $2 topic id, $3 targets [{subscriberId?, identifier?}]. Deletes every subscription
 * a target matches and reports targets that matched nothing, in one statement.
 */
export const UNSUBSCRIBE = `
WITH input AS (
  SELECT t.n, t.e->>'subscriberId' AS sid, t.e->>'identifier' AS identifier
  FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(e, n)
), targets AS (
  SELECT ts.id, i.n
  FROM input i
  JOIN topic_subscriptions ts ON ts.environment_id = $1::uuid AND ts.topic_id = $2::uuid
    AND (i.identifier IS NULL OR ts.identifier = i.identifier)
  JOIN subscribers s ON s.id = ts.subscriber_id AND (i.sid IS NULL OR s.subscriber_id = i.sid)
), removed AS (
  DELETE FROM topic_subscriptions ts WHERE ts.id IN (SELECT id FROM targets)
  RETURNING ts.id, ts.identifier, ts.name, ts.context_keys, ts.preferences, ts.created_at, ts.updated_at, ts.subscriber_id
)
SELECT 'removed' AS outcome, NULL::bigint AS n, NULL AS input_subscriber_id, NULL AS input_identifier,
       r.id, r.identifier, r.name, r.context_keys, r.preferences, r.created_at, r.updated_at, ${SUBSCRIBER_COLUMNS}
FROM removed r JOIN subscribers s ON s.id = r.subscriber_id
UNION ALL
SELECT 'not_found', i.n, i.sid, i.identifier, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM input i WHERE NOT EXISTS (SELECT 1 FROM targets t WHERE t.n = i.n)
ORDER BY n NULLS FIRST`;
