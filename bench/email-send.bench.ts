import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@herald/adapters';
import { insertWorkflowWithSteps, query } from './support/fixtures';
import { SENDGRID_KEY, startSendGridReceiver, startSmtpReceiver, type EmailReceiver } from './support/email-receivers';
import { postgresCpuSeconds, processCpuSeconds, report, requestWithKey, spawnHerald, stopHerald } from './support/herald';

// Issue 43: an email fan-out to EMAIL_SEND_SUBSCRIBERS subscribers (10,000) from one topic trigger,
// timed from the trigger to the last email the receiver took, (a) through a loopback SMTP server with
// the nodemailer integration and (b) through a loopback SendGrid API with the sendgrid integration,
// each beside a bare loop of the official client (pooled nodemailer, @sendgrid/mail) sending as many
// emails to the same receiver over the same EMAIL_SEND_CONNECTIONS connections (the integrations'
// maxConcurrentSends), in the same run (target: Herald >= 0.8x the bare loop). (c) The same fan-out
// through an SMTP integration with sendRatePerSecond EMAIL_SEND_LIMIT (200): the rate kept and the
// most emails in any one second (target: within 5% of the limit, never over). Herald and the bare
// loops each run in a process of their own; the receivers run in this one.
const SUBSCRIBERS = Number(process.env.EMAIL_SEND_SUBSCRIBERS ?? 10_000);
const CONNECTIONS = Number(process.env.EMAIL_SEND_CONNECTIONS ?? 20);
const LIMIT = Number(process.env.EMAIL_SEND_LIMIT ?? 200);
// EMAIL_SEND_PARTS=limited (say) runs only some of the parts: smtp, sendgrid, limited.
const PARTS = new Set((process.env.EMAIL_SEND_PARTS ?? 'smtp,sendgrid,limited').split(','));
const API_KEY = 'bench-key';

const [smtp, sendgrid] = await Promise.all([startSmtpReceiver(), startSendGridReceiver()]);
const dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-email-send-'));
const postgres = await startEmbeddedPostgres({ dataDir });
const db = postgres.url;
const { child, url } = await spawnHerald({
  DATABASE_URL: db,
  HERALD_DATA_DIR: dataDir,
  HERALD_API_KEY: API_KEY,
  // The SMTP receiver is on loopback.
  HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
  HERALD_PROVIDER_ENDPOINTS: JSON.stringify({ sendgrid: sendgrid.url }),
});
const api = (path: string, json: unknown) => requestWithKey(url, API_KEY, path, { method: 'POST', json });

/** An active email integration taking the triggers whose payload.route is `route`. */
async function integration(providerId: string, route: string, credentials: Record<string, unknown>, configurations: Record<string, number>) {
  const conditions = [{ isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'route', value: route, operator: 'EQUAL', on: 'payload' }] }];
  const res = await api('/v1/integrations', { providerId, name: route, identifier: route, active: true, credentials, configurations, conditions });
  if (res.status !== 201) throw new Error(`creating the ${route} integration failed: ${res.status} ${await res.text()}`);
}

/** CPU seconds so far of the service's process and of its PostgreSQL (`checkpointer`: one of its processes). */
const serviceCpu = async (checkpointer: number) => ({ service: await processCpuSeconds(child.pid!), postgres: await postgresCpuSeconds(checkpointer) });
let checkpointer = 0;

/** One trigger to the whole topic, sent through the integration of `route`; resolves when every email has arrived. */
async function fanOut(receiver: EmailReceiver, route: string, transactionId: string): Promise<{ ms: number; cpu: { service: number; postgres: number } }> {
  const before = await serviceCpu(checkpointer);
  receiver.reset();
  const started = performance.now();
  const res = await api('/v1/events/trigger', { name: 'email-send', to: { type: 'Topic', topicKey: 'readers' }, payload: { route }, transactionId });
  if (res.status !== 201) throw new Error(`trigger failed: ${res.status} ${await res.text()}`);
  await receiver.received(SUBSCRIBERS);
  const ms = receiver.arrivals.at(-1)! - started;
  const after = await serviceCpu(checkpointer);
  return { ms, cpu: { service: after.service - before.service, postgres: after.postgres - before.postgres } };
}

/** The bare loop (support/email-bare-loop.mjs) in its own process; timed from its start signal to the last arrival. */
async function bareLoop(receiver: EmailReceiver, kind: 'smtp' | 'sendgrid', target: string): Promise<{ ms: number; cpuSeconds: number }> {
  const script = fileURLToPath(new URL('./support/email-bare-loop.mjs', import.meta.url));
  const loop = spawn(process.execPath, [script, kind, target, String(SUBSCRIBERS), String(CONNECTIONS), SENDGRID_KEY], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => loop.on('exit', resolve));
  const lines = createInterface({ input: loop.stdout! });
  const said = (word: string) => new Promise<string>((resolve) => lines.on('line', (line) => line.split(' ')[0] === word && resolve(line)));
  const done = said('done');
  await Promise.race([said('ready'), exited.then((code) => Promise.reject(new Error(`the bare ${kind} loop exited with ${code}`)))]);
  receiver.reset();
  const started = performance.now();
  loop.stdin!.write('go\n');
  await receiver.received(SUBSCRIBERS);
  const code = await exited;
  if (code !== 0) throw new Error(`the bare ${kind} loop exited with ${code}`);
  return { ms: receiver.arrivals.at(-1)! - started, cpuSeconds: Number((await done).split(' ')[1]) };
}

/** Every subscriber's address exactly once. */
function checkRecipients(receiver: EmailReceiver, what: string): void {
  const distinct = new Set(receiver.recipients).size;
  if (distinct !== SUBSCRIBERS || receiver.recipients.length !== SUBSCRIBERS) throw new Error(`${what}: ${receiver.recipients.length} emails to ${distinct} distinct recipients, ${SUBSCRIBERS} expected`);
}

const perSecond = (ms: number) => Math.round((SUBSCRIBERS / ms) * 1000);

/** Herald beside the bare loop for one receiver, printed; the ratio is Herald's rate over the loop's. */
async function compare(name: string, receiver: EmailReceiver, route: string, kind: 'smtp' | 'sendgrid', target: string) {
  const { ms: heraldMs, cpu } = await fanOut(receiver, route, `email-send-${route}`);
  checkRecipients(receiver, `Herald through ${name}`);
  const heraldPeak = receiver.peakConnections;
  const { ms: bareMs, cpuSeconds } = await bareLoop(receiver, kind, target);
  checkRecipients(receiver, `the bare ${name} loop`);
  // CPU per email moves less than rates do on a shared machine.
  const perEmail = (seconds: number) => ((seconds * 1000) / SUBSCRIBERS).toFixed(2);
  report(`${name}: CPU per email, Herald's service + its PostgreSQL / the bare loop's process`, `${perEmail(cpu.service)} + ${perEmail(cpu.postgres)} / ${perEmail(cpuSeconds)}`, 'ms');
  report(`${name}: Herald, ${SUBSCRIBERS}-subscriber fan-out, trigger to last email received (${heraldPeak} connections at the receiver)`, perSecond(heraldMs), `emails/s (${Math.round(heraldMs)} ms)`);
  report(`${name}: bare loop of the official client, ${CONNECTIONS} connections (${receiver.peakConnections} at the receiver)`, perSecond(bareMs), `emails/s (${Math.round(bareMs)} ms)`);
  report(`${name}: Herald / bare loop`, Math.round((bareMs / heraldMs) * 100) / 100, 'x', '>= 0.8x');
}

/** The rate kept over the steady part (the middle 80% of the arrivals) and the most arrivals in any one second. */
function rateKept(arrivals: number[]): { steady: number; maxInSecond: number } {
  const from = Math.floor(arrivals.length * 0.1);
  const to = Math.floor(arrivals.length * 0.9);
  const steady = ((to - from) / (arrivals[to] - arrivals[from])) * 1000;
  let maxInSecond = 0;
  // Sliding window: the arrivals within one second before (and at) each arrival.
  for (let last = 0, first = 0; last < arrivals.length; last++) {
    while (arrivals[last] - arrivals[first] >= 1000) first++;
    maxInSecond = Math.max(maxInSecond, last - first + 1);
  }
  return { steady, maxInSecond };
}

try {
  await insertWorkflowWithSteps(db, { workflowId: 'email-send' }, [
    { type: 'email', stepId: 'news', controlValues: { subject: 'News for you', body: "<p>Hello {{subscriber.firstName}}, here is this week's news.</p>" } },
  ]);
  await query(
    db,
    `WITH env AS (SELECT id FROM environments WHERE slug = 'development'),
     subs AS (INSERT INTO subscribers (environment_id, subscriber_id, first_name, email)
              SELECT env.id, 'mail-' || g, 'User' || g, 'mail-' || g || '@example.com' FROM env, generate_series(1, $1) g RETURNING id, environment_id, subscriber_id),
     topic AS (INSERT INTO topics (environment_id, key) SELECT id, 'readers' FROM env RETURNING id, environment_id)
     INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier)
     SELECT topic.environment_id, topic.id, subs.id, 'readers:' || subs.subscriber_id FROM topic, subs`,
    [SUBSCRIBERS],
  );
  await query(db, 'VACUUM ANALYZE');
  [{ pid: checkpointer }] = await query<{ pid: number }>(db, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
  const smtpCredentials = { host: smtp.host, port: String(smtp.port), from: 'shop@herald.test', senderName: 'Shop' };
  await integration('nodemailer', 'smtp', smtpCredentials, { maxConcurrentSends: CONNECTIONS });
  await integration('sendgrid', 'sendgrid', { apiKey: SENDGRID_KEY, from: 'shop@herald.test', senderName: 'Shop' }, { maxConcurrentSends: CONNECTIONS });
  await integration('nodemailer', 'limited', smtpCredentials, { maxConcurrentSends: CONNECTIONS, sendRatePerSecond: LIMIT });
  // Workers read an environment's integrations at most every 2 s; one email through each loads its client.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  for (const [route, receiver] of [['smtp', smtp], ['sendgrid', sendgrid], ['limited', smtp]] as const) {
    receiver.reset();
    const res = await api('/v1/events/trigger', { name: 'email-send', to: 'mail-1', payload: { route }, transactionId: `warm-${route}` });
    if (res.status !== 201) throw new Error(`warm-up trigger failed: ${res.status}`);
    await receiver.received(1, 30_000);
  }

  if (PARTS.has('smtp')) await compare('SMTP (nodemailer)', smtp, 'smtp', 'smtp', `${smtp.host}:${smtp.port}`);
  if (PARTS.has('sendgrid')) await compare('HTTP (sendgrid)', sendgrid, 'sendgrid', 'sendgrid', sendgrid.url);
  if (PARTS.has('limited')) {
    // A stall of this process (the receiver's) bunches arrivals at the receiver however evenly they were sent.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const { ms: limitedMs } = await fanOut(smtp, 'limited', 'email-send-limited');
    lag.disable();
    checkRecipients(smtp, 'Herald through the rate-limited integration');
    const { steady, maxInSecond } = rateKept(smtp.arrivals);
    report(`SMTP limited to ${LIMIT}/s: trigger to last email received`, perSecond(limitedMs), `emails/s (${Math.round(limitedMs)} ms)`);
    report(`SMTP limited to ${LIMIT}/s: rate kept over the steady part (middle 80% of arrivals)`, Math.round(steady * 10) / 10, `emails/s (${((steady / LIMIT - 1) * 100).toFixed(1)}%)`, `within 5% of ${LIMIT}/s`);
    report(`SMTP limited to ${LIMIT}/s: most emails in any 1-second window`, maxInSecond, 'emails', `<= ${LIMIT}`);
    report(`SMTP limited to ${LIMIT}/s: longest stall of the receiver's process meanwhile (event loop delay)`, Math.round(lag.max / 1e6), 'ms');
  }
} finally {
  await stopHerald(child);
  await postgres.stop();
  await Promise.all([smtp.close(), sendgrid.close()]);
  await rm(dataDir, { recursive: true, force: true });
}
