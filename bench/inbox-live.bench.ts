import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@herald/adapters';
import { io, type Socket } from 'socket.io-client';
import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { report, spawnHerald, stopHerald, summarize } from './support/herald';

// Issue 11: 1,000 connected Inbox clients (socket.io, as @novu/js opens them) on one Herald process
// receive a topic broadcast. Herald runs in its own process so its memory is its own; the clients
// run here. Same-run baseline: the broadcast's trigger to its last inbox row in the database.
const CLIENTS = Number(process.env.INBOX_CLIENTS ?? 1_000);
const API_KEY = 'bench-key';

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

const dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-inbox-'));
const postgres = await startEmbeddedPostgres({ dataDir });
const dbUrl = postgres.url;
const { child, url } = await spawnHerald({ DATABASE_URL: dbUrl, HERALD_DATA_DIR: dataDir, HERALD_API_KEY: API_KEY });
const api = (path: string, body: unknown, headers: Record<string, string> = { authorization: `ApiKey ${API_KEY}` }) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const sockets: Socket[] = [];
try {
  await insertWorkflowWithSteps(dbUrl, { workflowId: 'broadcast' }, [{ type: 'in_app', controlValues: { subject: 'News', body: 'Hello {{subscriber.subscriberId}}' } }]);
  await query(
    dbUrl,
    `WITH env AS (SELECT id FROM environments WHERE slug = 'development'),
     subs AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT env.id, 'live-' || g FROM env, generate_series(1, $1) g RETURNING id, environment_id, subscriber_id),
     topic AS (INSERT INTO topics (environment_id, key) SELECT id, 'everyone' FROM env RETURNING id, environment_id)
     INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier)
     SELECT topic.environment_id, topic.id, subs.id, 'everyone:' || subs.subscriber_id FROM topic, subs`,
    [CLIENTS],
  );
  const [{ public_identifier: applicationIdentifier }] = await query<{ public_identifier: string }>(dbUrl, "SELECT public_identifier FROM environments WHERE slug = 'development'");

  // Sessions, 50 at a time, then one socket per subscriber.
  const tokens: string[] = [];
  for (let i = 0; i < CLIENTS; i += 50) {
    const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, (_, j) =>
      api('/v1/inbox/session', { applicationIdentifier, subscriber: { subscriberId: `live-${i + j + 1}` } }, {}).then(async (r) => (await r.json()).data.token as string),
    );
    tokens.push(...(await Promise.all(batch)));
  }
  await new Promise((r) => setTimeout(r, 1_000));
  const rssBefore = await rssKb(child.pid!);
  let connected = 0;
  let triggeredAt = 0;
  const latencies: number[] = [];
  for (let i = 0; i < CLIENTS; i += 100) {
    await Promise.all(
      tokens.slice(i, i + 100).map(
        (token) =>
          new Promise<void>((resolve, reject) => {
            const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
            socket.once('connect', () => (connected++, resolve()));
            socket.once('connect_error', reject);
            socket.on('notification_received', () => latencies.push(performance.now() - triggeredAt));
            sockets.push(socket);
          }),
      ),
    );
  }
  await new Promise((r) => setTimeout(r, 2_000));
  const rssAfter = await rssKb(child.pid!);

  /** One topic broadcast: every client's delivery latency, and when the last inbox row was written. */
  async function broadcast(transactionId: string): Promise<number> {
    latencies.length = 0;
    triggeredAt = performance.now();
    const res = await api('/v1/events/trigger', { name: 'broadcast', to: { type: 'Topic', topicKey: 'everyone' }, payload: {}, transactionId });
    if (res.status !== 201) throw new Error(`trigger failed: ${res.status} ${await res.text()}`);
    let lastRowMs = 0;
    await waitFor(async () => {
      if (!lastRowMs) {
        const [{ n }] = await query<{ n: number }>(dbUrl, 'SELECT count(*)::int AS n FROM messages WHERE transaction_id = $1', [transactionId]);
        if (n >= CLIENTS) lastRowMs = performance.now() - triggeredAt;
      }
      return latencies.length >= CLIENTS && lastRowMs > 0;
    }, 60_000, 50).catch(() => undefined);
    return lastRowMs;
  }
  // The first broadcast warms the process (statement plans, module code); the second is measured.
  await broadcast('broadcast-warm-up');
  const lastRowMs = await broadcast('broadcast-1');

  const s = summarize(latencies);
  report('connected inbox clients', connected, `/ ${CLIENTS}`, `${CLIENTS}`);
  report('server memory per connection (RSS delta / clients)', Math.round(((rssAfter - rssBefore) / CLIENTS) * 10) / 10, 'KB', '< 100 KB');
  report('clients that received the broadcast', s.n, `/ ${CLIENTS}`, `${CLIENTS}`);
  report('trigger to client, p50', Math.round(s.p50), 'ms');
  report('trigger to client, p99', Math.round(s.p99), 'ms', '< 2000 ms');
  report('baseline: trigger to last inbox row in the database', Math.round(lastRowMs), 'ms');
} finally {
  for (const socket of sockets) socket.close();
  await stopHerald(child);
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
