-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL DEFAULT uuidv7(),
    "environment_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "event_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secrets" TEXT NOT NULL,
    "previous_secret_until" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" UUID NOT NULL DEFAULT uuidv7(),
    "environment_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "ordering_key" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT uuidv7(),
    "seq" BIGSERIAL NOT NULL,
    "phase" SMALLINT NOT NULL DEFAULT 0,
    "event_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "ordering_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL DEFAULT uuidv7(),
    "delivery_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "succeeded" BOOLEAN NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_environment_id_idx" ON "webhook_endpoints"("environment_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- CreateIndex
CREATE INDEX "webhook_attempts_endpoint_id_id_idx" ON "webhook_attempts"("endpoint_id", "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_attempts_delivery_id_idx" ON "webhook_attempts"("delivery_id");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written from here on (Prisma's schema cannot say these).

-- What the dispatcher reads: per endpoint and ordering key, the oldest pending delivery.
-- Order within a key: by transaction (created_at is its start), then phase (a notification's completion
-- after the messages its last step wrote in the same statement, whose trigger runs after the
-- statement's own inserts), then write order.
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" ("endpoint_id", "ordering_key", "created_at", "phase", "seq") WHERE "status" = 'pending';

-- Whether an environment has an enabled endpoint that takes events of a type. Inlined by the planner.
CREATE FUNCTION herald_webhook_wanted(env uuid, event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM webhook_endpoints e
    WHERE e.environment_id = env AND e.enabled AND (cardinality(e.event_types) = 0 OR event_type = ANY(e.event_types)))
$$;

-- The outbox relay inside the database: every event written becomes, in the same transaction, one
-- delivery per enabled endpoint that takes it, and wakes the dispatchers (NOTIFY is sent on commit,
-- once per transaction however many statements notify).
CREATE FUNCTION herald_webhook_events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, ordering_key, next_attempt_at, created_at, phase)
  SELECT ev.id, e.id, ev.environment_id, ev.ordering_key, ev.created_at, ev.created_at, CASE WHEN ev.type = 'notification.completed' THEN 1 ELSE 0 END
  FROM (SELECT * FROM new_events ORDER BY id) ev
  JOIN webhook_endpoints e ON e.environment_id = ev.environment_id AND e.enabled
    AND (cardinality(e.event_types) = 0 OR ev.type = ANY(e.event_types))
  ORDER BY ev.id, e.id;
  IF FOUND THEN PERFORM pg_notify('herald_webhooks', ''); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_events_fan_out();

-- A message as events describe it.
CREATE FUNCTION herald_webhook_message(m messages) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('messageId', m.id, 'notificationId', m.notification_id, 'transactionId', m.transaction_id,
    'jobId', m.job_id, 'subscriberId', (SELECT s.subscriber_id FROM subscribers s WHERE s.id = m.subscriber_id),
    'workflowId', m.workflow->>'identifier', 'channel', m.channel, 'providerId', m.provider_id, 'status', m.status,
    'providerMessageId', m.provider_message_id, 'createdAt', m.created_at)
$$;

-- Messages written: message.sent / message.failed. Every path that writes messages (the step
-- recorder, triggers and fan-out running in-app steps inline) is covered, in its own transaction.
-- The first test is one probe of a tiny table per statement: without endpoints nothing else runs.
CREATE FUNCTION herald_webhook_messages_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) THEN RETURN NULL; END IF;
  INSERT INTO webhook_events (environment_id, type, ordering_key, data)
  SELECT m.environment_id, 'message.' || m.status, m.notification_id::text, herald_webhook_message(m)
  FROM new_messages m
  WHERE m.status IN ('sent', 'failed') AND herald_webhook_wanted(m.environment_id, 'message.' || m.status)
  ORDER BY m.id;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_webhook_inserted AFTER INSERT ON messages REFERENCING NEW TABLE AS new_messages
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_messages_inserted();

-- Messages changed: read, seen, archived (false -> true), delivered or bounced (a provider's receipt).
CREATE FUNCTION herald_webhook_messages_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) THEN RETURN NULL; END IF;
  INSERT INTO webhook_events (environment_id, type, ordering_key, data)
  SELECT n.environment_id, t.type, n.notification_id::text, herald_webhook_message(n)
  FROM new_messages n JOIN old_messages o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES
    (1, 'message.read', n.is_read AND NOT o.is_read),
    (2, 'message.seen', n.is_seen AND NOT o.is_seen),
    (3, 'message.archived', n.is_archived AND NOT o.is_archived),
    (4, 'message.' || n.status, n.status IN ('delivered', 'bounced') AND n.status IS DISTINCT FROM o.status)
  ) AS t(ord, type, happened)
  WHERE t.happened AND herald_webhook_wanted(n.environment_id, t.type)
  ORDER BY n.id, t.ord;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_webhook_updated AFTER UPDATE ON messages REFERENCING OLD TABLE AS old_messages NEW TABLE AS new_messages
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_messages_updated();

-- A subscriber as events describe it: its profile, never its channel credentials.
CREATE FUNCTION herald_webhook_subscriber(s subscribers) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('_id', s.id, 'subscriberId', s.subscriber_id, 'firstName', s.first_name, 'lastName', s.last_name,
    'email', s.email, 'phone', s.phone, 'avatar', s.avatar, 'locale', s.locale, 'timezone', s.timezone, 'data', s.data,
    'createdAt', s.created_at, 'updatedAt', s.updated_at)
$$;

CREATE FUNCTION herald_webhook_subscribers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT n.environment_id, 'subscriber.created', 'subscriber:' || n.subscriber_id, herald_webhook_subscriber(n)
    FROM new_subscribers n WHERE herald_webhook_wanted(n.environment_id, 'subscriber.created') ORDER BY n.created_at, n.id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT o.environment_id, 'subscriber.deleted', 'subscriber:' || o.subscriber_id, herald_webhook_subscriber(o)
    FROM old_subscribers o WHERE herald_webhook_wanted(o.environment_id, 'subscriber.deleted') ORDER BY o.id;
  ELSE
    -- Presence (is_online, last_online_at) is not a change of the subscriber.
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT n.environment_id, 'subscriber.updated', 'subscriber:' || n.subscriber_id, herald_webhook_subscriber(n)
    FROM new_subscribers n JOIN old_subscribers o ON o.id = n.id
    WHERE (n.first_name, n.last_name, n.email, n.phone, n.avatar, n.locale, n.timezone, n.data::text, n.channels::text, n.deleted)
      IS DISTINCT FROM (o.first_name, o.last_name, o.email, o.phone, o.avatar, o.locale, o.timezone, o.data::text, o.channels::text, o.deleted)
      AND herald_webhook_wanted(n.environment_id, 'subscriber.updated')
    ORDER BY n.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER subscribers_webhook_inserted AFTER INSERT ON subscribers REFERENCING NEW TABLE AS new_subscribers
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_subscribers_changed();
CREATE TRIGGER subscribers_webhook_updated AFTER UPDATE ON subscribers REFERENCING OLD TABLE AS old_subscribers NEW TABLE AS new_subscribers
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_subscribers_changed();
CREATE TRIGGER subscribers_webhook_deleted AFTER DELETE ON subscribers REFERENCING OLD TABLE AS old_subscribers
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_subscribers_changed();

-- A preference row written or changed (global, or for one workflow).
CREATE FUNCTION herald_webhook_preference(n subscriber_preferences) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('subscriberId', (SELECT s.subscriber_id FROM subscribers s WHERE s.id = n.subscriber_id),
    'workflowId', (SELECT w.workflow_id FROM workflows w WHERE w.id = n.workflow_id), 'enabled', n.enabled, 'channels', n.channels,
    'updatedAt', n.updated_at)
$$;

CREATE FUNCTION herald_webhook_preferences_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT n.environment_id, 'preference.updated', 'subscriber:' || (p->>'subscriberId'), p
    FROM new_preferences n CROSS JOIN LATERAL herald_webhook_preference(n) p
    WHERE herald_webhook_wanted(n.environment_id, 'preference.updated') ORDER BY n.id;
  ELSE
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT n.environment_id, 'preference.updated', 'subscriber:' || (p->>'subscriberId'), p
    FROM new_preferences n JOIN old_preferences o ON o.id = n.id CROSS JOIN LATERAL herald_webhook_preference(n) p
    WHERE (n.enabled, n.channels) IS DISTINCT FROM (o.enabled, o.channels) AND herald_webhook_wanted(n.environment_id, 'preference.updated')
    ORDER BY n.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER subscriber_preferences_webhook_inserted AFTER INSERT ON subscriber_preferences REFERENCING NEW TABLE AS new_preferences
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_preferences_changed();
CREATE TRIGGER subscriber_preferences_webhook_updated AFTER UPDATE ON subscriber_preferences REFERENCING OLD TABLE AS old_preferences NEW TABLE AS new_preferences
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_preferences_changed();

CREATE FUNCTION herald_webhook_workflow(w workflows) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('_id', w.id, 'workflowId', w.workflow_id, 'name', w.name, 'description', w.description, 'tags', w.tags,
    'active', w.active, 'critical', w.critical, 'severity', w.severity, 'origin', w.origin, 'updatedAt', w.updated_at)
$$;

-- Workflows created, changed or deleted (soft or hard). Stamping last_triggered_at is not a change.
CREATE FUNCTION herald_webhook_workflows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT n.environment_id, 'workflow.created', 'workflow:' || n.id, herald_webhook_workflow(n)
    FROM new_workflows n WHERE NOT n.deleted AND herald_webhook_wanted(n.environment_id, 'workflow.created') ORDER BY n.id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT o.environment_id, 'workflow.deleted', 'workflow:' || o.id, herald_webhook_workflow(o)
    FROM old_workflows o WHERE NOT o.deleted AND herald_webhook_wanted(o.environment_id, 'workflow.deleted') ORDER BY o.id;
  ELSE
    INSERT INTO webhook_events (environment_id, type, ordering_key, data)
    SELECT n.environment_id, CASE WHEN n.deleted THEN 'workflow.deleted' ELSE 'workflow.updated' END, 'workflow:' || n.id, herald_webhook_workflow(n)
    FROM new_workflows n JOIN old_workflows o ON o.id = n.id
    WHERE NOT o.deleted
      AND (to_jsonb(n) - ARRAY['last_triggered_at', 'updated_at']) IS DISTINCT FROM (to_jsonb(o) - ARRAY['last_triggered_at', 'updated_at'])
      AND herald_webhook_wanted(n.environment_id, CASE WHEN n.deleted THEN 'workflow.deleted' ELSE 'workflow.updated' END)
    ORDER BY n.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER workflows_webhook_inserted AFTER INSERT ON workflows REFERENCING NEW TABLE AS new_workflows
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_workflows_changed();
CREATE TRIGGER workflows_webhook_updated AFTER UPDATE ON workflows REFERENCING OLD TABLE AS old_workflows NEW TABLE AS new_workflows
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_workflows_changed();
CREATE TRIGGER workflows_webhook_deleted AFTER DELETE ON workflows REFERENCING OLD TABLE AS old_workflows
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_workflows_changed();
