import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps } from './support/workflow-rows';

// An integration's sendRatePerSecond and maxConcurrentSends, seen from the SMTP server they send to:
// the service runs as a user runs it, each integration sends to an SMTP server of its own.
let svc: TestService;
let rated: SmtpFake;
let bounded: SmtpFake;

const route = (value: string) => [{ isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'route', value, operator: 'EQUAL', on: 'payload' }] }];
const recipients = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ subscriberId: `${prefix}-${i + 1}`, email: `${prefix}-${i + 1}@example.com` }));

async function smtpIntegration(identifier: string, smtp: SmtpFake, configurations: Record<string, number>) {
  const res = await svc.request('/v1/integrations', {
    method: 'POST',
    json: { providerId: 'nodemailer', name: identifier, identifier, active: true, conditions: route(identifier), configurations, credentials: { host: smtp.host, port: String(smtp.port), from: 'shop@herald.test' } },
  });
  expect(res.status).toBe(201);
}

/** One trigger to `to`, sent through the integration named `through`; resolves once every job has finished. */
async function send(through: string, to: Array<{ subscriberId: string; email: string }>, transactionId: string) {
  const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'limited-mail', to, payload: { route: through }, transactionId } });
  expect(res.status).toBe(201);
  return waitFor(() => finishedSteps(svc.databaseUrl, transactionId), 25_000, 200);
}

/** Every address once: sorted, what arrived equals what was sent to. */
const arrivedOnce = (smtp: SmtpFake) => smtp.messages.flatMap((m) => m.envelope.to).sort();

beforeAll(async () => {
  [rated, bounded] = await Promise.all([startSmtpFake(), startSmtpFake()]);
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'limited-mail' }, [{ type: 'email', stepId: 'mail', controlValues: { subject: 'Hello', body: '<p>Hi {{subscriber.subscriberId}}</p>' } }]);
  await smtpIntegration('rated', rated, { sendRatePerSecond: 20 });
  await smtpIntegration('bounded', bounded, { maxConcurrentSends: 2 });
  // Workers read an environment's integrations at most every 2 s.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
}, 90_000);

afterAll(async () => {
  await svc?.dispose();
  await Promise.all([rated?.close(), bounded?.close()]);
});

describe('send limits of an integration, at the SMTP server', () => {
  it('60 emails through an integration limited to 20/s arrive no faster than 20 a second, each exactly once', async () => {
    const to = recipients('rated', 60);
    const steps = await send('rated', to, 'tx-rated');
    expect(steps.map((s) => s.status)).toEqual(Array(60).fill('completed'));
    // Each sent at its first attempt: nothing failed and went to retry.
    expect(steps.flatMap((s) => s.details.map((d) => d.status))).toEqual(Array(60).fill('Success'));
    // Give a duplicate time to show up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(arrivedOnce(rated)).toEqual(to.map((r) => r.email).sort());

    const times = rated.messages.map((m) => m.at).sort((a, b) => a - b);
    // Slots are 50 ms apart: the 60th is 2.95 s after the first. Unlimited, all 60 arrive within a few hundred ms.
    expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual((60 / 20 - 1) * 1000 - 100);
    // No second at the server holds more than the rate, whatever the connections' latency or a stall
    // did to the arrivals (a sliding window over the server's clock). Unlimited, one second holds all 60.
    let most = 0;
    for (let last = 0, first = 0; last < times.length; last++) {
      while (times[last] - times[first] >= 1000) first++;
      most = Math.max(most, last - first + 1);
    }
    expect(most).toBeLessThanOrEqual(20);
  });

  it('an integration with maxConcurrentSends 2 never has more than 2 connections open at the SMTP server, and sends every email once', async () => {
    const to = recipients('bounded', 30);
    const steps = await send('bounded', to, 'tx-bounded');
    expect(steps.map((s) => s.status)).toEqual(Array(30).fill('completed'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(arrivedOnce(bounded)).toEqual(to.map((r) => r.email).sort());
    // nodemailer's own pool would open 5 for 30 emails at once.
    expect(bounded.peakConnections).toBeGreaterThan(0);
    expect(bounded.peakConnections).toBeLessThanOrEqual(2);
  });
});
