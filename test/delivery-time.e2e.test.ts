import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { jobsOf, triggerMany, unfinished } from './support/time-steps';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 15 acceptance: every kind of delay, on time and across a crash; throttle; validation and preview.
let svc: TestService;

const IN_APP = { type: 'in_app', stepId: 'bell', controlValues: { body: 'Hello {{payload.n}}' } };
const delay = (controlValues: Record<string, unknown>) => ({ type: 'delay', stepId: 'wait', controlValues });

async function settled(workflowId: string, subscriberId: string, notifications: number, timeoutMs = 30_000) {
  return waitFor(async () => {
    const rows = await jobsOf(svc, workflowId, subscriberId);
    return new Set(rows.map((r) => r.notification_id)).size === notifications && !unfinished(rows) ? rows : null;
  }, timeoutMs, 100);
}

const lateMs = (detail: string) => {
  const [, value, unit] = /ran ([\d.]+) (ms|s) late$/.exec(detail)!;
  return Number(value) * (unit === 's' ? 1000 : 1);
};

beforeAll(async () => {
  svc = await startService();
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'regular' }, [delay({ type: 'regular', amount: 1, unit: 'seconds' }), IN_APP]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'timed' }, [delay({ type: 'timed', cron: '*/2 * * * * *' }), IN_APP]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'dynamic' }, [delay({ type: 'dynamic', dynamicKey: 'payload.sendAt' }), IN_APP]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'crash' }, [delay({ amount: 3, unit: 'seconds' }), IN_APP]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'throttled' }, [{ type: 'throttle', stepId: 'throttle', controlValues: { amount: 1, unit: 'minutes', threshold: 5 } }, IN_APP]);
}, 120_000);
afterAll(() => svc?.dispose());

describe('delay', () => {
  it('regular: runs the next step after amount+unit, on time, and ends in a final status saying how late it ran', async () => {
    const sent = Date.now();
    await triggerMany([svc], 1, () => ({ name: 'regular', to: 'd-1', payload: { n: 1 } }));
    const [wait, bell] = await settled('regular', 'd-1', 1);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1_000);
    expect(wait.status).toBe('completed');
    expect(wait.details[0]).toMatch(/^delayed until /);
    expect(wait.details.at(-1)).toMatch(/^delay ended: due at \S+, ran [\d.]+ m?s late$/);
    // Not ~5 s late (pg-boss polling) any more; generous for a loaded machine (the bench measures p99).
    expect(lateMs(wait.details.at(-1)!)).toBeLessThan(1_000);
    expect(bell.status).toBe('completed');
    const activity = await (await svc.request(`/v1/notifications/${wait.notification_id}`)).json();
    const job = activity.data.jobs.find((j: { type: string }) => j.type === 'delay');
    expect(job.executionDetails.at(-1).status).toBe('Success');
    expect(job.scheduleExtensionsCount).toBe(0);
  }, 40_000);

  it('timed: waits for the next tick of its cron', async () => {
    await triggerMany([svc], 1, () => ({ name: 'timed', to: 'd-2', payload: { n: 2 } }));
    const [wait, bell] = await settled('timed', 'd-2', 1);
    const due = new Date(/^delayed until (\S+)$/.exec(wait.details[0])![1]);
    expect(due.getUTCSeconds() % 2).toBe(0);
    expect(due.getUTCMilliseconds()).toBe(0);
    expect(bell.status).toBe('completed');
  }, 40_000);

  it('dynamic: waits until the date at the payload path; a past date runs at once', async () => {
    const sendAt = new Date(Date.now() + 1_500).toISOString();
    await triggerMany([svc], 1, () => ({ name: 'dynamic', to: 'd-3', payload: { n: 3, sendAt } }));
    const [wait] = await settled('dynamic', 'd-3', 1);
    expect(wait.details[0]).toBe(`delayed until ${sendAt}`);
    await triggerMany([svc], 1, () => ({ name: 'dynamic', to: 'd-4', payload: { n: 4, sendAt: '2020-01-01T00:00:00Z' } }));
    const [past, bell] = await settled('dynamic', 'd-4', 1);
    expect(past.details).toEqual(['delay: 2020-01-01T00:00:00.000Z has passed; continuing at once']);
    expect(bell.status).toBe('completed');
    await triggerMany([svc], 1, () => ({ name: 'dynamic', to: 'd-5', payload: { n: 5, sendAt: 'someday' } }));
    const [bad] = await settled('dynamic', 'd-5', 1);
    expect(bad).toMatchObject({ status: 'failed', details: ['delay: payload.sendAt is not a date in the payload'] });
  }, 40_000);
});

describe('throttle', () => {
  it('lets exactly threshold (5) of 20 concurrent triggers through in a 1-minute window', async () => {
    // Not across a minute boundary: fixed windows are clock minutes.
    await waitFor(async () => new Date().getUTCSeconds() < 45, 20_000, 200);
    await triggerMany([svc], 20, (i) => ({ name: 'throttled', to: 't-1', payload: { n: i } }), 20);
    const rows = await settled('throttled', 't-1', 20);
    const throttle = rows.filter((r) => r.step_id === 'throttle');
    expect(throttle.filter((r) => r.status === 'completed')).toHaveLength(5);
    const over = throttle.filter((r) => r.status === 'skipped');
    expect(over).toHaveLength(15);
    expect(over[0].details[0]).toMatch(/^throttled: execution \d+ in the 1 minutes window from \S+ is over the threshold of 5; the remaining steps were skipped$/);
    expect(rows.filter((r) => r.step_id === 'bell' && r.status === 'completed')).toHaveLength(5);
    const [{ n }] = await queryDatabase<{ n: number }>(
      svc.databaseUrl,
      `SELECT count(*)::int AS n FROM messages m JOIN subscribers s ON s.id = m.subscriber_id WHERE s.subscriber_id = 't-1'`,
    );
    expect(n).toBe(5);
  }, 60_000);
});

describe('validation and preview of time steps', () => {
  const bad = async (controlValues: Record<string, unknown>, type = 'delay') => {
    const res = await svc.request('/v2/workflows', { method: 'POST', json: { name: 'x', steps: [{ type, name: 'T', controlValues }] } });
    expect(res.status).toBe(422);
    return (await res.json()).errors as Record<string, { messages: string[] }>;
  };

  it('refuses a delay past the longest one (365 days), a bad cron, an unknown unit and a threshold below 1, naming the field', async () => {
    const tooLong = await bad({ amount: 366, unit: 'days' });
    expect(Object.keys(tooLong)).toEqual(['steps[0].controlValues.amount']);
    expect(tooLong['steps[0].controlValues.amount'].messages[0]).toMatch(/at most 365 days/);
    expect(Object.keys(await bad({ amount: 13, unit: 'months' }, 'digest'))).toEqual(['steps[0].controlValues.amount']);
    expect(Object.keys(await bad({ type: 'timed', cron: '61 * * * *' }))).toEqual(['steps[0].controlValues.cron']);
    expect(Object.keys(await bad({ amount: 1, unit: 'fortnights' }))).toEqual(['steps[0].controlValues.unit']);
    expect(Object.keys(await bad({ amount: 1, unit: 'minutes', threshold: 0 }, 'throttle'))).toEqual(['steps[0].controlValues.threshold']);
    expect(Object.keys(await bad({ type: 'timed', timed: { atTime: '25:00' } }, 'digest'))).toEqual(['steps[0].controlValues.timed.atTime']);
    const ok = await svc.request('/v2/workflows', {
      method: 'POST',
      json: { name: 'Timing', workflowId: 'timing', steps: [
        { type: 'delay', name: 'Wait', controlValues: { type: 'dynamic', dynamicKey: 'payload.sendAt' } },
        { type: 'digest', name: 'Batch', controlValues: { amount: 5, unit: 'minutes', digestKey: 'postId', lookBackWindow: { amount: 1, unit: 'minutes' } } },
        { type: 'delay', name: 'Later', controlValues: { amount: 365, unit: 'days' } },
      ] },
    });
    expect(ok.status).toBe(201);
  });

  it('previews delay and digest steps in the spec shape (amount, unit, digestKey, lookBackWindow)', async () => {
    const preview = async (stepId: string) => {
      const res = await svc.request(`/v2/workflows/timing/step/${stepId}/preview`, { method: 'POST', json: {} });
      expect(res.status).toBe(201);
      return (await res.json()).data.result;
    };
    expect(await preview('batch')).toEqual({
      type: 'digest',
      preview: { amount: 5, unit: 'minutes', digestKey: 'postId', lookBackWindow: { amount: 1, unit: 'minutes' } },
    });
    expect(await preview('later')).toEqual({ type: 'delay', preview: { amount: 365, unit: 'days' } });
  });
});

describe('a delay across a crash', () => {
  it('survives SIGKILL 1 s after the trigger and a restart 5 s later: runs once, late, and says so', async () => {
    await triggerMany([svc], 1, () => ({ name: 'crash', to: 'c-1', payload: { n: 9 } }));
    await new Promise((r) => setTimeout(r, 1_000));
    await svc.kill();
    await new Promise((r) => setTimeout(r, 5_000));
    await svc.restart();
    const [wait, bell] = await settled('crash', 'c-1', 1, 60_000);
    expect(wait.status).toBe('completed');
    expect(lateMs(wait.details.at(-1)!)).toBeGreaterThanOrEqual(2_000); // due 3 s after the trigger, the service was back after ~6 s
    expect(bell.status).toBe('completed');
    const [{ n }] = await queryDatabase<{ n: number }>(
      svc.databaseUrl,
      `SELECT count(*)::int AS n FROM messages m JOIN subscribers s ON s.id = m.subscriber_id WHERE s.subscriber_id = 'c-1'`,
    );
    expect(n).toBe(1);
  }, 120_000);
});
