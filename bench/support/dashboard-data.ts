import type pg from 'pg';

/**
 * The dashboard benchmark's data, made set-based in SQL (generate_series): `subscribers` subscribers,
 * and `notifications` notifications of a workflow with an in-app step (run inline, as a trigger runs
 * it) and an email step (a completed job with its execution detail), ten recipients per trigger,
 * spread over the last 30 days with time-ordered ids; every notification has its two messages. The
 * Overview's rollup is filled from the same rows, with what the service would have counted.
 */
export interface DashboardData {
  environmentId: string;
  workflowId: string;
  inAppStepId: string;
  emailStepId: string;
  subscribers: number;
  notifications: number;
}

const DAYS = 30;
const PER_EVENT = 10;

export async function generateDashboardData(client: pg.Client, d: DashboardData, log: (line: string) => void): Promise<void> {
  const step = async (what: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    const { rowCount } = await client.query(sql, params);
    log(`  ${what}: ${rowCount ?? 0} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  // A UUID version 7 of a given time, as the service's ids of that time would be.
  await client.query(`CREATE FUNCTION pg_temp.uuidv7_at(ts timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM ts) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid $$`);
  const events = Math.ceil(d.notifications / PER_EVENT);
  const span = DAYS * 86_400;

  await step(
    'subscribers',
    `INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name, email, phone, created_at, updated_at)
     SELECT $1, 'sub-' || g, (ARRAY['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Ken', 'Margaret'])[1 + g % 8], 'Last' || (g % 5000),
            'user' || g || '@example' || (g % 100) || '.com', '+1555' || lpad(g::text, 7, '0'), t, t
     FROM generate_series(1, $2::int) g, LATERAL (SELECT now() - make_interval(secs => ($2::int - g) * ${span}.0 / $2::int)) AS x(t)`,
    [d.environmentId, d.subscribers],
  );
  await client.query('CREATE TEMP TABLE bench_subscribers AS SELECT row_number() OVER () AS n, id FROM subscribers WHERE environment_id = $1', [d.environmentId]);
  await client.query('CREATE UNIQUE INDEX ON bench_subscribers (n)');
  await step(
    'events',
    `INSERT INTO events (id, environment_id, workflow_id, transaction_id, payload, "to", status, created_at, fanned_out_at, channels)
     SELECT pg_temp.uuidv7_at(t), $1, $2, 'bench-' || g, '{"orderId": "A-1"}', '"bench"', 'fanned_out', t, t, '{in_app,email}'
     FROM generate_series(1, $3::int) g, LATERAL (SELECT now() - make_interval(secs => ($3::int - g) * ${span}.0 / $3::int)) AS x(t)`,
    [d.environmentId, d.workflowId, events],
  );
  await step(
    'notifications (with the in-app step run inline)',
    `INSERT INTO notifications (id, environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, created_at, updated_at,
                                inline_job_id, inline_workflow_step_id, inline_step_id, inline_step_type, inline_position, inline_status, inline_provider_id)
     SELECT pg_temp.uuidv7_at(e.created_at), e.environment_id, e.id, e.workflow_id, s.id, e.transaction_id, e.channels, e.created_at, e.created_at,
            pg_temp.uuidv7_at(e.created_at), $2, 'inbox', 'in_app', 0, 'completed', 'herald'
     FROM (SELECT row_number() OVER (ORDER BY created_at) AS n, * FROM events WHERE environment_id = $1) e
     CROSS JOIN generate_series(0, ${PER_EVENT - 1}) k
     JOIN bench_subscribers s ON s.n = 1 + ((e.n * ${PER_EVENT} + k) % $3::int)
     WHERE (e.n - 1) * ${PER_EVENT} + k < $4::int
     ORDER BY e.created_at`,
    [d.environmentId, d.inAppStepId, d.subscribers, d.notifications],
  );
  await step(
    'in-app messages',
    `INSERT INTO messages (id, environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, body, status, created_at, updated_at, delivered_at)
     SELECT pg_temp.uuidv7_at(n.created_at), n.environment_id, n.id, n.inline_job_id, n.subscriber_id, n.transaction_id, 'in_app', 'herald', 'Order A-1 shipped', 'sent',
            n.created_at, n.created_at, ARRAY[n.created_at]
     FROM notifications n WHERE n.environment_id = $1 ORDER BY n.id`,
    [d.environmentId],
  );
  await step(
    'email jobs',
    `INSERT INTO jobs (id, environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status, provider_id, run_at, attempts, created_at, updated_at)
     SELECT pg_temp.uuidv7_at(n.created_at), n.environment_id, n.id, n.subscriber_id, $2, 'mail', 'email', 1, 'completed', 'herald-email', n.created_at, 1,
            n.created_at, n.created_at + interval '1.2 seconds'
     FROM notifications n WHERE n.environment_id = $1 ORDER BY n.id`,
    [d.environmentId, d.emailStepId],
  );
  await step(
    'email execution details',
    `INSERT INTO execution_details (id, environment_id, job_id, notification_id, status, source, detail, provider_id, created_at)
     SELECT pg_temp.uuidv7_at(j.updated_at), j.environment_id, j.id, j.notification_id, 'Success', 'Internal', 'sent via herald-email (herald-email)', 'herald-email', j.updated_at
     FROM jobs j WHERE j.environment_id = $1 ORDER BY j.id`,
    [d.environmentId],
  );
  await step(
    'email messages',
    `INSERT INTO messages (id, environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, destination, subject, body, status, created_at, updated_at, delivered_at)
     SELECT pg_temp.uuidv7_at(j.updated_at), j.environment_id, j.notification_id, j.id, j.subscriber_id, 'bench', 'email', 'herald-email', '"user@example.com"', 'Order A-1',
            '<p>Order A-1 shipped</p>', 'sent', j.updated_at, j.updated_at, ARRAY[j.updated_at]
     FROM jobs j WHERE j.environment_id = $1 ORDER BY j.id`,
    [d.environmentId],
  );
  // What the service's tally would have added for these rows: triggers, sends, and their lag (in-app
  // within 100 ms of the trigger, email 1.2 s after it).
  await step(
    'overview rollup',
    `INSERT INTO overview_counts AS o (environment_id, hour, metric, channel, provider_id, outcome, count)
     SELECT environment_id, date_trunc('hour', created_at, 'UTC'), 'trigger', '', '', '', count(*) FROM events WHERE environment_id = $1 GROUP BY 1, 2
     UNION ALL
     SELECT environment_id, date_trunc('hour', created_at, 'UTC'), unnest(ARRAY['delivery', 'lag']), 'in_app', unnest(ARRAY['herald', '']), unnest(ARRAY['sent', '100']), count(*)
       FROM notifications WHERE environment_id = $1 GROUP BY 1, 2
     UNION ALL
     SELECT environment_id, date_trunc('hour', updated_at, 'UTC'), unnest(ARRAY['delivery', 'lag']), 'email', unnest(ARRAY['herald-email', '']), unnest(ARRAY['sent', '2500']), count(*)
       FROM jobs WHERE environment_id = $1 GROUP BY 1, 2
     ON CONFLICT (environment_id, hour, metric, channel, provider_id, outcome) DO UPDATE SET count = o.count + excluded.count`,
    [d.environmentId],
  );
}
