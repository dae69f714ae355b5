import type { DigestEntry, DigestPlace } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlDigestRepository } from './sql-digest-repository';

const database = useTestDatabase();
let digests: SqlDigestRepository;

beforeAll(async () => {
  digests = new SqlDigestRepository(database.db.pool);
  await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
});

/** `count` notifications of one subscriber, each with a queued digest job; returns their entries. */
async function digestJobs(name: string, count: number, closesAt: Date): Promise<DigestEntry[]> {
  const { rows } = await database.db.pool.query<{ job_id: string; notification_id: string; environment_id: string; subscriber_id: string; step_id: string }>(
    `WITH env AS (SELECT id FROM environments LIMIT 1),
     w AS (INSERT INTO workflows (environment_id, workflow_id, name) SELECT id, $1, $1 FROM env RETURNING id, environment_id),
     st AS (INSERT INTO workflow_steps (workflow_id, step_id, name, type, position) SELECT id, 'd', 'd', 'digest', 0 FROM w RETURNING id),
     s AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT environment_id, $1 FROM w RETURNING id, environment_id),
     e AS (INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload)
           SELECT w.environment_id, w.id, $1 || '-' || g, '{}', jsonb_build_object('i', g) FROM w, generate_series(1, $2) g RETURNING id, environment_id, workflow_id, transaction_id),
     n AS (INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
           SELECT e.environment_id, e.id, e.workflow_id, gen_random_uuid(), e.transaction_id FROM e
           RETURNING id, environment_id),
     j AS (INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
           SELECT n.environment_id, n.id, s.id, st.id, 'd', 'digest', 0, 'running' FROM n, s, st RETURNING id, notification_id, environment_id, subscriber_id, workflow_step_id)
     SELECT id AS job_id, notification_id, environment_id, subscriber_id, workflow_step_id AS step_id FROM j`,
    [name, count],
  );
  return rows.map((r) => ({
    jobId: r.job_id,
    notificationId: r.notification_id,
    environmentId: r.environment_id,
    subscriberId: r.subscriber_id,
    workflowStepId: r.step_id,
    digestKey: '',
    closesAt,
    backoffSince: null,
    metadata: { type: 'regular' },
  }));
}

const windowOf = async (jobIds: string[]) =>
  (await database.db.pool.query<{ id: string; w: string | null }>('SELECT id, digest_window_id AS w FROM jobs WHERE id = ANY($1::uuid[])', [jobIds])).rows;

describe('SqlDigestRepository', () => {
  it('opens one digest led by the first job of a slice; the others join it; entering again keeps the places', async () => {
    const entries = await digestJobs('slice', 5, new Date(Date.now() + 60_000));
    const places = await digests.enter(entries);
    expect(places[0]).toMatchObject({ role: 'leader', status: 'open' });
    const digestId = places[0].digestId;
    expect(places.slice(1)).toEqual(Array(4).fill({ role: 'member', digestId, leaderNotificationId: entries[0].notificationId }));
    expect(await digests.enter(entries.slice(0, 2))).toEqual(places.slice(0, 2));
  });

  it('never puts an event in two digests or in none while joins race with closes', async () => {
    // Every window is due at once: each leader closes its window right after opening it, while
    // the other jobs are joining. Whatever interleaving happens, the events a leader gets at close
    // are exactly the jobs placed in its window, and every job is in exactly one closed window.
    const entries = await digestJobs('race', 400, new Date(Date.now() - 1_000));
    // 8 workers, each entering its jobs one after another, so closes interleave with joins.
    const places: DigestPlace[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = w; i < entries.length; i += 8) places.push(...(await digests.enter([entries[i]])));
      }),
    );
    const closed = places.filter((p) => p.role === 'leader' && p.status === 'closed');
    expect(places.every((p) => p.role === 'member' || p.status === 'closed')).toBe(true);
    const placed = await windowOf(entries.map((e) => e.jobId));
    expect(placed.every((r) => r.w)).toBe(true);
    const byWindow = new Map<string, string[]>();
    for (const e of entries) {
      const w = placed.find((r) => r.id === e.jobId)!.w!;
      byWindow.set(w, [...(byWindow.get(w) ?? []), e.notificationId]);
    }
    expect(closed.length).toBe(byWindow.size);
    expect(byWindow.size).toBeGreaterThan(1); // the race happened: later events opened later windows
    let total = 0;
    for (const p of closed) {
      if (p.role !== 'leader' || p.status !== 'closed') continue;
      const got = p.events.map((e) => e.id).sort();
      expect(got).toEqual([...(byWindow.get(p.digestId) ?? [])].sort());
      total += got.length;
    }
    expect(total).toBe(400);
  }, 60_000);

  it('closes a backoff digest at once when no event of its key came within the backoff', async () => {
    const [lone, next] = await digestJobs('backoff', 2, new Date(Date.now() + 60_000));
    const since = new Date(Date.now() - 5_000);
    const [first] = await digests.enter([{ ...lone, backoffSince: since }]);
    expect(first).toMatchObject({ role: 'leader', status: 'closed', events: [expect.objectContaining({ payload: { i: 1 } })] });
    const [second] = await digests.enter([{ ...next, backoffSince: since }]);
    expect(second).toMatchObject({ role: 'leader', status: 'open' });
  });
});
