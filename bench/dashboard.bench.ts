import pg from 'pg';
import { OverviewTally, type OverviewCount } from '@herald/domain';
import { ScryptPasswordHasher, SqlOverviewRepository } from '@herald/adapters';
import { generateDashboardData } from './support/dashboard-data';
import { report, startBenchService, summarize, percentile } from './support/herald';

// Issue 41: the server time of the dashboard's heaviest reads on 1,000,000 notifications and
// 1,000,000 subscribers (goal: p95 < 200 ms): the Activity first page, subscriber searches and the
// Overview. Timed at the client over loopback (the HTTP round trip adds well under a millisecond),
// sequentially, after warm-up; first right after the data is written and ANALYZEd (tables not yet
// vacuumed, as after a large fan-out), then after VACUUM (as autovacuum leaves them).
const NOTIFICATIONS = Number(process.env.DASHBOARD_BENCH_NOTIFICATIONS ?? 1_000_000);
const SUBSCRIBERS = Number(process.env.DASHBOARD_BENCH_SUBSCRIBERS ?? 1_000_000);
const SAMPLES = Number(process.env.DASHBOARD_BENCH_SAMPLES ?? 40);
const PASSWORD = 'bench password 123';

const svc = await startBenchService();
const client = new pg.Client({ connectionString: svc.herald.databaseUrl });
await client.connect();
try {
  const workflow = { workflowId: 'order-shipped', name: 'Order shipped', steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Order {{payload.orderId}} shipped' } }, { name: 'Mail', type: 'email', controlValues: { subject: 'Order', body: '<p>Shipped</p>' } }] };
  if ((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status !== 201) throw new Error('workflow not created');
  const { rows } = await client.query<{ environment_id: string; workflow_id: string; in_app: string; email: string }>(
    `SELECT w.environment_id, w.id AS workflow_id, (SELECT id FROM workflow_steps WHERE workflow_id = w.id AND type = 'in_app') AS in_app,
            (SELECT id FROM workflow_steps WHERE workflow_id = w.id AND type = 'email') AS email
     FROM workflows w WHERE w.workflow_id = 'order-shipped'`,
  );
  const [w] = rows;
  process.stdout.write(`generating ${NOTIFICATIONS} notifications and ${SUBSCRIBERS} subscribers in SQL\n`);
  const started = performance.now();
  await generateDashboardData(client, { environmentId: w.environment_id, workflowId: w.workflow_id, inAppStepId: w.in_app, emailStepId: w.email, subscribers: SUBSCRIBERS, notifications: NOTIFICATIONS }, (line) => process.stdout.write(`${line}\n`));
  await client.query('ANALYZE');
  report('data setup', Math.round((performance.now() - started) / 100) / 10, 's');

  // A dashboard session, as the web app calls the API.
  await client.query(
    "INSERT INTO dashboard_users (organization_id, email, role, password_hash) SELECT organization_id, 'bench@example.com', 'viewer', $1 FROM environments WHERE id = $2",
    [await new ScryptPasswordHasher().hash(PASSWORD), w.environment_id],
  );
  const signIn = await fetch(`${svc.url}/v1/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }) });
  const cookie = /herald_session=[^;]*/.exec(signIn.headers.get('set-cookie') ?? '')![0];
  const asDashboard = (path: string) => fetch(`${svc.url}${path}`, { headers: { cookie, 'herald-environment': w.environment_id } });
  const asKey = (path: string) => svc.request(path);

  const reads: Array<[string, string, (path: string) => Promise<Response>]> = [
    ['activity first page', '/v1/notifications?page=0&limit=10', asDashboard],
    ['activity first page (API key)', '/v1/notifications?page=0&limit=10', asKey],
    ['subscribers list', '/v2/subscribers?limit=10', asDashboard],
    ['subscriber search by email prefix', '/v2/subscribers?limit=10&email=user4242', asDashboard],
    ['subscriber search by first and last name', '/v2/subscribers?limit=10&name=Grace%20Last42', asDashboard],
    ['subscriber search by part of a name', '/v2/subscribers?limit=10&name=ast4999', asDashboard],
    ['overview', '/v1/overview', asDashboard],
  ];
  const measure = async (phase: string) => {
    for (const [name, path, send] of reads) {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES + 3; i++) {
        const t = performance.now();
        const res = await send(path);
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
        if (i >= 3) samples.push(performance.now() - t);
      }
      const sorted = [...samples].sort((a, b) => a - b);
      const p95 = Math.round(percentile(sorted, 95) * 10) / 10;
      report(`${phase}: ${name} p50`, summarize(samples).p50, 'ms');
      report(`${phase}: ${name} p95`, p95, 'ms', '< 200 ms');
    }
  };
  await measure('fresh');
  await client.query('VACUUM ANALYZE');
  await measure('vacuumed');

  // The Overview's write path: what a trigger pays (a map update), and the flush statement.
  const tally = new OverviewTally();
  const calls = 1_000_000;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) tally.triggered(w.environment_id);
  report('tally per trigger', Math.round(((performance.now() - t0) * 1e6) / calls) / 1000, 'µs');
  const pool = new pg.Pool({ connectionString: svc.herald.databaseUrl, max: 2 });
  const overview = new SqlOverviewRepository(pool);
  const hour = new Date(Date.now() - (Date.now() % 3_600_000));
  const batch: OverviewCount[] = [
    { metric: 'trigger', channel: '', providerId: '', outcome: '' },
    { metric: 'delivery', channel: 'in_app', providerId: 'herald', outcome: 'sent' },
    { metric: 'delivery', channel: 'email', providerId: 'sendgrid', outcome: 'sent' },
    { metric: 'delivery', channel: 'email', providerId: 'none', outcome: 'skipped' },
    { metric: 'provider_failure', channel: 'email', providerId: 'sendgrid', outcome: '' },
    ...['100', '250', '500', '1000', '2500'].map((outcome) => ({ metric: 'lag' as const, channel: 'email', providerId: '', outcome })),
  ].map((c) => ({ ...c, environmentId: w.environment_id, hour, count: 3_000 }));
  const flushes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await overview.add(batch);
    flushes.push(performance.now() - t);
  }
  report(`overview flush of ${batch.length} keys (one statement every 2 s per process) p50`, summarize(flushes).p50, 'ms');
  await pool.end();
} finally {
  await client.end();
  await svc.close();
}
