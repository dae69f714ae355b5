import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { jobsOf, outboxEmails, unfinished } from './support/time-steps';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 44 acceptance against the running service: channel steps wait for the subscriber's
// schedule (an in-app step and a critical workflow do not), a delay extends to it and counts one
// extension, and a SIGKILL while steps wait loses and duplicates nothing. The schedule opens at the
// next whole minute in the subscribers' own timezone (Tokyo), so the test waits for real time once.
let svc: TestService;
let novu: Novu;
let opensAt: Date;
const ZONE = 'Asia/Tokyo';
const WAITING = 40;
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const EMAIL = { type: 'email', stepId: 'email', controlValues: { subject: 'Hi {{payload.n}}', body: 'Body {{payload.n}}' } };
const IN_APP = { type: 'in_app', stepId: 'bell', controlValues: { body: 'Hello {{payload.n}}' } };

/** The wall clock in Tokyo as "hh:mm AM" and the day's name. */
function tokyo(at: Date): { day: string; time: string } {
  const local = new Date(at.getTime() + 9 * 3_600_000);
  const h = local.getUTCHours();
  const time = `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  return { day: DAYS[local.getUTCDay()], time };
}

/** Open only from `opensAt` for thirty minutes, on that day in Tokyo. */
function schedule() {
  const start = tokyo(opensAt);
  const end = tokyo(new Date(opensAt.getTime() + 30 * 60_000));
  return { isEnabled: true, weeklySchedule: { [start.day]: { isEnabled: true, hours: [{ start: start.time, end: end.time }] } } };
}

async function subscriberWithSchedule(subscriberId: string) {
  const created = await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId, email: `${subscriberId}@example.com`, timezone: ZONE } });
  expect(created.status).toBe(201);
  // Through the official SDK, as an application would set it.
  const updated = await novu.subscribers.preferences.update({ schedule: schedule() }, subscriberId);
  expect(updated.result.global.schedule).toEqual(schedule());
}

const trigger = async (name: string, to: string, n: number) => {
  const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name, to, payload: { n }, transactionId: `${name}-${to}-${n}` } });
  expect(res.status).toBe(201);
};

async function settled(workflowId: string, subscriberId: string, timeoutMs: number) {
  return waitFor(async () => {
    const rows = await jobsOf(svc, workflowId, subscriberId);
    return rows.length && !unfinished(rows) ? rows : null;
  }, timeoutMs, 100);
}

const sentAfter = (detail: string) => {
  const [, value, unit] = /sending ([\d.]+) (ms|s) after it$/.exec(detail)!;
  return Number(value) * (unit === 's' ? 1000 : 1);
};

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  // The next whole minute at least 25 s away: time to trigger, kill and restart before it opens.
  opensAt = new Date(Math.ceil((Date.now() + 25_000) / 60_000) * 60_000);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'held' }, [IN_APP, EMAIL]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'urgent', critical: true }, [EMAIL]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'extended' }, [{ type: 'delay', stepId: 'wait', controlValues: { amount: 1, unit: 'seconds', extendToSchedule: true } }, IN_APP]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'many' }, [EMAIL]);
  await subscriberWithSchedule('tokyo-1');
  for (let i = 0; i < WAITING; i++) await subscriberWithSchedule(`tokyo-many-${i}`);
  await trigger('held', 'tokyo-1', 1);
  await trigger('urgent', 'tokyo-1', 2);
  await trigger('extended', 'tokyo-1', 3);
  await Promise.all(Array.from({ length: WAITING }, (_, i) => trigger('many', `tokyo-many-${i}`, i)));
  expect(Date.now()).toBeLessThan(opensAt.getTime() - 5_000);
}, 180_000);
afterAll(() => svc?.dispose());

describe('before the schedule opens', () => {
  it('the in-app step and the critical workflow went out; the email waits, saying until when', async () => {
    const rows = await waitFor(async () => {
      const r = await jobsOf(svc, 'held', 'tokyo-1');
      return r.find((j) => j.step_id === 'email' && j.status === 'delayed') ? r : null;
    });
    // The in-app step ran with the trigger (inline, no job row): the activity log shows it.
    const list = await (await svc.request('/v1/notifications?transactionId=held-tokyo-1-1')).json();
    expect(list.data[0].jobs.find((j: { type: string }) => j.type === 'in_app').status).toBe('completed');
    const email = rows.find((j) => j.step_id === 'email')!;
    expect(email.details).toEqual([`outside the subscriber's delivery schedule: waiting until ${opensAt.toISOString()} (${tokyo(opensAt).day.slice(0, 1).toUpperCase()}${tokyo(opensAt).day.slice(1, 3)} ${tokyo(opensAt).time} ${ZONE})`]);
    const [urgent] = await settled('urgent', 'tokyo-1', 20_000);
    expect(urgent.status).toBe('completed');
    expect((await outboxEmails(svc, 'tokyo-1')).map((e) => e.subject)).toEqual(['Hi 2']);
    expect(Date.now()).toBeLessThan(opensAt.getTime());
  });

  it('a SIGKILL while 40 emails and a delay wait for the schedule, then a restart', async () => {
    await waitFor(async () => {
      const [{ n }] = await queryDatabase<{ n: number }>(
        svc.databaseUrl,
        `SELECT count(*)::int AS n FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id LIKE 'many-%' AND j.status = 'delayed'`,
      );
      return n === WAITING;
    });
    await svc.kill();
    await svc.restart();
    expect(Date.now()).toBeLessThan(opensAt.getTime());
  }, 60_000);
});

describe('once the schedule opens', () => {
  it('the held email goes out at the opening, on time', async () => {
    const rows = await settled('held', 'tokyo-1', opensAt.getTime() - Date.now() + 30_000);
    const email = rows.find((j) => j.step_id === 'email')!;
    expect(email.status).toBe('completed');
    expect(email.details[1]).toMatch(new RegExp(`^the subscriber's delivery schedule opened at ${opensAt.toISOString()}; sending [\\d.]+ m?s after it$`));
    console.info(`held email sent ${sentAfter(email.details[1])} ms after the schedule opened`);
    // Generous for a loaded shared machine; the figure is printed.
    expect(sentAfter(email.details[1])).toBeLessThan(1_000);
    expect((await outboxEmails(svc, 'tokyo-1')).map((e) => e.subject).sort()).toEqual(['Hi 1', 'Hi 2']);
    // The activity log (the interface's event log) tells the wait and until when.
    const activity = await (await svc.request(`/v1/notifications/${email.notification_id}`)).json();
    const logged = activity.data.jobs.find((j: { type: string }) => j.type === 'email').executionDetails.map((d: { detail: string }) => d.detail);
    expect(logged.slice(0, 2)).toEqual(email.details.slice(0, 2));
    expect(logged[0]).toContain(`waiting until ${opensAt.toISOString()}`);
  }, 120_000);

  it('the delay that extended to the schedule ended at the opening and counts one extension', async () => {
    const rows = await settled('extended', 'tokyo-1', opensAt.getTime() - Date.now() + 30_000);
    const wait = rows.find((j) => j.step_id === 'wait')!;
    expect(wait.details[0]).toMatch(new RegExp(`^delayed until ${opensAt.toISOString()}, extended from \\S+ to the subscriber's delivery schedule`));
    const activity = await (await svc.request(`/v1/notifications/${wait.notification_id}`)).json();
    const job = activity.data.jobs.find((j: { type: string }) => j.type === 'delay');
    expect(job.scheduleExtensionsCount).toBe(1);
    expect(activity.data.jobs.find((j: { type: string }) => j.type === 'in_app').status).toBe('completed');
  }, 120_000);

  it('every email that waited through the SIGKILL went out exactly once, none before the opening', async () => {
    const counts = await waitFor(async () => {
      const [row] = await queryDatabase<{ sent: number; distinct: number; unfinished: number; early: number }>(
        svc.databaseUrl,
        `SELECT count(*)::int AS sent, count(DISTINCT m.job_id)::int AS distinct,
                (SELECT count(*)::int FROM jobs j JOIN notifications n ON n.id = j.notification_id
                  WHERE n.transaction_id LIKE 'many-%' AND j.status <> 'completed') AS unfinished,
                count(*) FILTER (WHERE m.created_at < $1)::int AS early
         FROM messages m WHERE m.transaction_id LIKE 'many-%' AND m.channel = 'email'`,
        [opensAt],
      );
      return row.unfinished === 0 ? row : null;
    }, opensAt.getTime() - Date.now() + 60_000, 200);
    expect(counts).toEqual({ sent: WAITING, distinct: WAITING, unfinished: 0, early: 0 });
  }, 120_000);
});

describe('the schedule through the subscriber API', () => {
  it('reads back as set; an invalid range is a 422 naming the field', async () => {
    const read = await svc.request('/v2/subscribers/tokyo-1/preferences');
    expect((await read.json()).data.global.schedule).toEqual(schedule());
    const bad = await svc.request('/v2/subscribers/tokyo-1/preferences', {
      method: 'PATCH',
      json: { schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '9:00 AM' }] } } } },
    });
    expect(bad.status).toBe(422);
    const body = await bad.json();
    expect(Object.keys(body.errors)).toEqual(['schedule.weeklySchedule.monday.hours[0].end']);
    const unknown = await svc.request('/v2/subscribers/tokyo-1/preferences', { method: 'PATCH', json: { schedule: { isEnabled: true, weekly: {} } } });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain('weekly');
  });
});
