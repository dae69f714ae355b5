import { Novu } from '@novu/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HttpFake } from './support/http-fake';
import { startProviderFake } from './support/provider-fakes';
import { startService, type TestService } from './support/service';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// A retry waiting for its time survives a crash of the process: its job, its attempt count and the
// integration it was on are in the database.
let svc: TestService;
let fake: HttpFake;

beforeAll(async () => {
  fake = await startProviderFake();
  svc = await startService({
    HERALD_PROVIDER_ENDPOINTS: JSON.stringify({ twilio: fake.url }),
    HERALD_RETRY_POLICY: JSON.stringify({ initialDelayMs: 3_000, jitter: 0 }),
  });
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await fake?.close();
});

it('a send retried after a crash and a restart is delivered once, its attempts recorded', async () => {
  const novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.integrations.create({ providerId: 'twilio', identifier: 'sms-main', credentials: { accountSid: 'AC-r', token: 'tw-token-r', from: '+15559990000' }, active: true });
  await novu.subscribers.create({ subscriberId: 'rey', phone: '+15550002222' });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'notice' }, [{ type: 'sms', stepId: 'text', controlValues: { body: 'Notice {{payload.n}}' } }]);
  fake.failNext('/2010-04-01/Accounts/AC-r/', 1, { status: 503, body: { code: 20503, message: 'Service unavailable', status: 503 } });
  await novu.trigger({ workflowId: 'notice', to: 'rey', payload: { n: 1 }, transactionId: 'tx-restart' });
  await waitFor(async () => {
    const [job] = await queryDatabase<{ status: string }>(svc.databaseUrl, `SELECT status FROM jobs WHERE step_id = 'text'`);
    return job?.status === 'delayed';
  });
  await svc.kill();
  await svc.restart();
  const [step] = await waitFor(() => finishedSteps(svc.databaseUrl, 'tx-restart'), 45_000);
  expect(step.status).toBe('completed');
  expect(fake.to('/2010-04-01/Accounts/AC-r/')).toHaveLength(2);
  expect(step.details.map((d) => [d.status, d.is_retry])).toEqual([
    ['Failed', false],
    ['Success', true],
  ]);
}, 90_000);
