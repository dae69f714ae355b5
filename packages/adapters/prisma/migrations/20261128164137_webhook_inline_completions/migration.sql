-- Hand-written (Prisma's schema cannot say these).

-- A provider receipt that fails a message emits message.failed, as one that delivers or bounces it
-- emits message.delivered or message.bounced: once, when the status changes (failed is final).
CREATE OR REPLACE FUNCTION herald_webhook_messages_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) THEN RETURN NULL; END IF;
  INSERT INTO webhook_events (environment_id, type, ordering_key, data)
  SELECT n.environment_id, t.type, n.notification_id::text, herald_webhook_message(n)
  FROM new_messages n JOIN old_messages o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES
    (1, 'message.read', n.is_read AND NOT o.is_read),
    (2, 'message.seen', n.is_seen AND NOT o.is_seen),
    (3, 'message.archived', n.is_archived AND NOT o.is_archived),
    (4, 'message.' || n.status, n.status IN ('delivered', 'bounced', 'failed') AND n.status IS DISTINCT FROM o.status)
  ) AS t(ord, type, happened)
  WHERE t.happened AND herald_webhook_wanted(n.environment_id, t.type)
  ORDER BY n.id, t.ord;
  RETURN NULL;
END $$;

-- The outbox relay (webhook_events_fan_out) joins the capture switch. Statements that write events
-- themselves (the step recorder; the trigger accept and fan-out statements, for the steps they run
-- inline) insert nothing while no endpoint is enabled, but a statement-level trigger
-- is called for an insert of no rows too: off, it is not. An event can only be written while an
-- endpoint is enabled, and enabling one switches the relay on in the same transaction.
CREATE OR REPLACE FUNCTION herald_webhook_capture_triggers() RETURNS TABLE (table_name regclass, trigger_name name, enabled boolean) LANGUAGE sql STABLE AS $$
  SELECT g.tgrelid::regclass, g.tgname, g.tgenabled <> 'D' FROM pg_trigger g
  WHERE ((g.tgrelid IN ('messages'::regclass, 'subscribers'::regclass, 'subscriber_preferences'::regclass, 'workflows'::regclass)
      AND g.tgname LIKE '%\_webhook\_%')
    OR (g.tgrelid = 'webhook_events'::regclass AND g.tgname = 'webhook_events_fan_out'))
    AND NOT g.tgisinternal
$$;

SELECT herald_webhook_capture_sync(true);
