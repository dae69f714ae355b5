import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { closeDigestsWhenJoined, jobsOf, outboxEmails, triggerMany, unfinished } from './support/time-steps';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 15 acceptance: digests are exact under concurrency, by construction in PostgreSQL.
let svc: TestService;

const EMAIL = {
  type: 'email',
  stepId: 'email',
  controlValues: {
    subject: '{{ steps.digest.events | size }} new comments',
    body: '{% for e in steps.digest.events %}[{{ e.payload.text }}]{% endfor %}',
  },
};
const digest = (controlValues: Record<string, unknown>) => ({ type: 'digest', stepId: 'digest', controlValues });

async function subscriber(subscriberId: string) {
  const res = await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId, email: `${subscriberId}@example.com` } });
  expect(res.status).toBe(201);
}

async function settledJobs(workflowId: string, subscriberId: string, notifications: number, timeoutMs = 60_000) {
  return waitFor(async () => {
    const rows = await jobsOf(svc, workflowId, subscriberId);
    return new Set(rows.map((r) => r.notification_id)).size === notifications && !unfinished(rows) ? rows : null;
  }, timeoutMs, 200);
}

beforeAll(async () => {
  svc = await startService();
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'comments' }, [digest({ amount: 4, unit: 'seconds', digestKey: 'postId' }), EMAIL]);
  // An hour: the test moves the window's end to when all 1,000 events joined (a loaded machine takes a while to send them).
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'comments-many' }, [digest({ amount: 1, unit: 'hours', digestKey: 'postId' }), EMAIL]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'backoff' }, [
    digest({ type: 'regular', amount: 2, unit: 'seconds', lookBackWindow: { amount: 3, unit: 'seconds' } }),
    EMAIL,
  ]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'timed' }, [digest({ type: 'timed', cron: '*/3 * * * * *' }), EMAIL]);
}, 120_000);
afterAll(() => svc?.dispose());

describe('regular digest', () => {
  it('1,000 concurrent triggers for one subscriber and key continue once, with all 1,000 events', async () => {
    await subscriber('reader-1');
    await triggerMany([svc], 1000, (i) => ({ name: 'comments-many', to: 'reader-1', payload: { postId: 'p1', text: `c${i}` }, transactionId: `many-${i}` }));
    await closeDigestsWhenJoined(svc, 'comments-many', 1000);
    const rows = await settledJobs('comments-many', 'reader-1', 1000);
    const digests = rows.filter((r) => r.step_id === 'digest');
    const leaders = digests.filter((r) => r.status === 'completed');
    expect(leaders).toHaveLength(1);
    expect(digests.filter((r) => r.status === 'merged')).toHaveLength(999);
    expect(digests.find((r) => r.status === 'merged')!.details[0]).toMatch(/^merged into digest [0-9a-f-]{36}; notification [0-9a-f-]{36} continues/);
    expect(leaders[0].output).toMatchObject({ eventCount: 1000 });
    const texts = (leaders[0].output!.events as Array<{ payload: { text: string } }>).map((e) => e.payload.text).sort();
    expect(texts).toEqual(Array.from({ length: 1000 }, (_, i) => `c${i}`).sort());
    expect(leaders[0].details.at(-1)).toMatch(/closed with 1000 events/);
    expect(rows.filter((r) => r.step_id === 'email').map((r) => r.status).sort()).toEqual([...Array(999).fill('canceled'), 'completed']);

    const emails = await outboxEmails(svc, 'reader-1');
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe('1000 new comments');
    for (const text of ['[c0]', '[c1]', '[c999]']) expect(emails[0].body).toContain(text);

    // The activity log: the digest job carries the spec's DigestMetadata, merged notifications name the leader.
    const activity = await (await svc.request(`/v1/notifications/${leaders[0].notification_id}`)).json();
    const job = activity.data.jobs.find((j: { type: string }) => j.type === 'digest');
    expect(job.digest).toMatchObject({ type: 'regular', amount: 1, unit: 'hours', digestKey: 'postId' });
    expect(job.digest.events).toHaveLength(1000);
    const [{ n }] = await queryDatabase<{ n: number }>(
      svc.databaseUrl,
      'SELECT count(*)::int AS n FROM notifications WHERE digested_notification_id = $1',
      [leaders[0].notification_id],
    );
    expect(n).toBe(999);
  }, 120_000);

  it('two keys give two digests, and an event after a digest closed opens the next one', async () => {
    await subscriber('reader-2');
    await triggerMany([svc], 10, (i) => ({ name: 'comments', to: 'reader-2', payload: { postId: i % 2 ? 'odd' : 'even', text: `k${i}` } }));
    await settledJobs('comments', 'reader-2', 10);
    let emails = await outboxEmails(svc, 'reader-2');
    expect(emails.map((e) => e.subject)).toEqual(['5 new comments', '5 new comments']);
    expect(emails.map((e) => (e.body.includes('[k0]') ? 'even' : 'odd')).sort()).toEqual(['even', 'odd']);

    await triggerMany([svc], 2, (i) => ({ name: 'comments', to: 'reader-2', payload: { postId: 'odd', text: `late${i}` } }));
    await settledJobs('comments', 'reader-2', 12);
    emails = await outboxEmails(svc, 'reader-2');
    expect(emails).toHaveLength(3);
    expect(emails[2].subject).toBe('2 new comments');
    expect(emails[2].body).toContain('[late0]');
  }, 60_000);
});

describe('backoff digest', () => {
  it('passes a lone event straight through, and digests the events that follow it within the backoff', async () => {
    await subscriber('reader-3');
    const sent = Date.now();
    await triggerMany([svc], 1, () => ({ name: 'backoff', to: 'reader-3', payload: { text: 'alone' } }));
    const first = await waitFor(async () => {
      const emails = await outboxEmails(svc, 'reader-3');
      return emails.length ? emails : null;
    }, 20_000, 50);
    expect(Date.now() - sent).toBeLessThan(2_000); // not held for the 2 s digest window
    expect(first.map((e) => e.subject)).toEqual(['1 new comments']);

    await triggerMany([svc], 3, (i) => ({ name: 'backoff', to: 'reader-3', payload: { text: `burst${i}` } }), 1);
    await settledJobs('backoff', 'reader-3', 4);
    const emails = await outboxEmails(svc, 'reader-3');
    expect(emails.map((e) => e.subject)).toEqual(['1 new comments', '3 new comments']);
    const digests = (await jobsOf(svc, 'backoff', 'reader-3')).filter((r) => r.step_id === 'digest' && r.status === 'completed');
    expect(digests.map((d) => d.digest?.type)).toEqual(['backoff', 'backoff']);
  }, 60_000);
});

describe('timed digest', () => {
  it('collects until the next tick of its cron and fires then', async () => {
    await subscriber('reader-4');
    // The three must land in one window: sent early in one, not as a tick (every 3 s) may fall between them.
    while (Date.now() % 3_000 < 100 || Date.now() % 3_000 > 1_000) await new Promise((r) => setTimeout(r, 20));
    await triggerMany([svc], 3, (i) => ({ name: 'timed', to: 'reader-4', payload: { text: `t${i}` } }));
    const rows = await settledJobs('timed', 'reader-4', 3, 20_000);
    const leader = rows.find((r) => r.step_id === 'digest' && r.status === 'completed')!;
    const opened = /collecting events until (\S+)$/.exec(leader.details[0])![1];
    expect(new Date(opened).getUTCSeconds() % 3).toBe(0);
    expect(new Date(opened).getUTCMilliseconds()).toBe(0);
    const emails = await outboxEmails(svc, 'reader-4');
    expect(emails.map((e) => e.subject)).toEqual(['3 new comments']);
  }, 60_000);
});
