-- Hand-written: the webhook triggers of the written tables run only while some endpoint is enabled.
-- A statement-level trigger with a transition table makes PostgreSQL copy every row a statement
-- writes into that table, and call the function, even when the function then finds no endpoint: the
-- trigger accept statement paid it four times per batch (messages inserted, subscribers inserted and
-- updated, workflows updated) in every installation without webhooks. Disabled, a trigger costs nothing.

-- The triggers that turn changes of messages, subscribers, preferences and workflows into events.
CREATE FUNCTION herald_webhook_capture_triggers() RETURNS TABLE (table_name regclass, trigger_name name, enabled boolean) LANGUAGE sql STABLE AS $$
  SELECT g.tgrelid::regclass, g.tgname, g.tgenabled <> 'D' FROM pg_trigger g
  WHERE g.tgrelid IN ('messages'::regclass, 'subscribers'::regclass, 'subscriber_preferences'::regclass, 'workflows'::regclass)
    AND g.tgname LIKE '%\_webhook\_%' AND NOT g.tgisinternal
$$;

-- Sets those triggers on while an enabled endpoint exists; with `may_disable`, off while none does.
-- Switching off holds webhook_endpoints in SHARE mode until the transaction ends, so no endpoint is
-- written between its check and its commit (a writer waits, then switches them on again); run it in a
-- transaction of its own, after the endpoint change committed (staying on meanwhile is always safe).
-- Switching on takes a SHARE ROW EXCLUSIVE lock of the four tables: it waits for writes in flight.
CREATE FUNCTION herald_webhook_capture_sync(may_disable boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  wanted boolean;
  t record;
BEGIN
  IF may_disable THEN LOCK TABLE webhook_endpoints IN SHARE MODE; END IF;
  wanted := EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled);
  IF NOT wanted AND NOT may_disable THEN RETURN; END IF;
  FOR t IN SELECT * FROM herald_webhook_capture_triggers() c WHERE c.enabled <> wanted LOOP
    EXECUTE format('ALTER TABLE %s %s TRIGGER %I', t.table_name, CASE WHEN wanted THEN 'ENABLE' ELSE 'DISABLE' END, t.trigger_name);
  END LOOP;
END $$;

-- An endpoint created or enabled (by any path) switches them on in its own transaction.
CREATE FUNCTION herald_webhook_endpoints_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM herald_webhook_capture_sync(false);
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_endpoints_written AFTER INSERT OR UPDATE ON webhook_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION herald_webhook_endpoints_written();

SELECT herald_webhook_capture_sync(true);
