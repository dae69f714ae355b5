import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { closeDigestsWhenJoined, jobsOf, outboxEmails, triggerMany, unfinished } from './support/time-steps';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps } from './support/workflow-rows';

// Issue 15 acceptance: two Herald processes on one database still make exactly one digest.
let first: TestService;
let second: TestService;

beforeAll(async () => {
  first = await startService();
  second = await first.startPeer();
  await insertWorkflowWithSteps(first.databaseUrl, { workflowId: 'comments' }, [
    { type: 'digest', stepId: 'digest', controlValues: { amount: 1, unit: 'hours', digestKey: 'postId' } },
    { type: 'email', stepId: 'email', controlValues: { subject: '{{ steps.digest.events | size }} new comments', body: '{{ steps.digest.eventCount }}' } },
  ]);
  const res = await first.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'reader', email: 'reader@example.com' } });
  expect(res.status).toBe(201);
}, 120_000);
afterAll(async () => {
  await second?.dispose();
  await first?.dispose();
});

it('1,000 concurrent triggers through two processes continue once, with all 1,000 events', async () => {
  await triggerMany([first, second], 1000, (i) => ({ name: 'comments', to: 'reader', payload: { postId: 'p1', text: `c${i}` } }));
  await closeDigestsWhenJoined(first, 'comments', 1000);
  const rows = await waitFor(async () => {
    const r = await jobsOf(first, 'comments', 'reader');
    return new Set(r.map((j) => j.notification_id)).size === 1000 && !unfinished(r) ? r : null;
  }, 90_000, 250);
  const digests = rows.filter((r) => r.step_id === 'digest');
  expect(digests.filter((r) => r.status === 'completed')).toHaveLength(1);
  expect(digests.filter((r) => r.status === 'merged')).toHaveLength(999);
  const emails = await outboxEmails(first, 'reader');
  expect(emails.map((e) => [e.subject, e.body])).toEqual([['1000 new comments', '1000']]);
}, 180_000);
