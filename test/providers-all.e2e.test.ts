import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { credentialFields } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderFake, RunningProviderFake } from '../packages/adapters/src/providers/testing/provider-fake';
import { startService, type TestService } from './support/service';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps } from './support/workflow-rows';

// Every provider that sends, through the running service: its integration is created over the API
// with the credentials its fake takes (and refused, naming the field, without each required one),
// and a workflow step routed to it reaches the fake, which gives the message id the step records.
const FAKES = fileURLToPath(new URL('../packages/adapters/src/providers/fakes', import.meta.url));
const fixtures: ProviderFake[] = [];
for (const file of readdirSync(FAKES).filter((f) => f.endsWith('.fake.ts')).sort()) {
  fixtures.push(((await import(pathToFileURL(join(FAKES, file)).href)) as { fake: ProviderFake }).fake);
}

let svc: TestService;
const running = new Map<string, RunningProviderFake>();
const route = (value: string) => [{ isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'route', value, operator: 'EQUAL', on: 'payload' }] }];

beforeAll(async () => {
  for (const fixture of fixtures) running.set(fixture.id, await fixture.start());
  const endpoints = Object.fromEntries([...running].filter(([, fake]) => fake.endpoint).map(([id, fake]) => [id, fake.endpoint]));
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_PROVIDER_ENDPOINTS: JSON.stringify(endpoints) });
  for (const channel of ['email', 'sms', 'chat', 'push'] as const) {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: `all-${channel}` }, [
      { type: channel, stepId: 'send', controlValues: { subject: 'Order {{payload.orderId}}', body: channel === 'email' ? '<p>Order {{payload.orderId}} is on its way</p>' : 'Order {{payload.orderId}} is on its way' } },
    ]);
  }
}, 180_000);
afterAll(async () => {
  await svc?.dispose();
  await Promise.all([...running.values()].map((fake) => fake.close()));
});

/** The fake's working credentials, with a connection token (Slack's) as the integration's apiToken. */
function credentialsOf(fake: RunningProviderFake): Record<string, unknown> {
  return { ...fake.target.credentials, ...(fake.target.auth ? { apiToken: fake.target.auth.accessToken } : {}) };
}

describe('every sending provider, through the service', () => {
  it('refuses an integration without each required credential, naming it (422)', async () => {
    for (const fixture of fixtures) {
      const credentials = credentialsOf(running.get(fixture.id)!);
      for (const field of credentialFields(fixture.id).required) {
        const { [field]: _left, ...without } = credentials;
        const response = await svc.request('/v1/integrations', { method: 'POST', json: { providerId: fixture.id, identifier: `${fixture.id}-no-${field}`, credentials: without, active: true } });
        expect(response.status, `${fixture.id} without ${field}`).toBe(422);
        expect(JSON.stringify(await response.json()), `${fixture.id} without ${field}`).toContain(`credentials.${field}`);
      }
    }
  });

  it('creates each with its credentials, and a step through it sends and records the message id', async () => {
    for (const fixture of fixtures) {
      const fake = running.get(fixture.id)!;
      const response = await svc.request('/v1/integrations', {
        method: 'POST',
        json: { providerId: fixture.id, identifier: `all-${fixture.id}`, name: fixture.id, credentials: credentialsOf(fake), conditions: route(fixture.id), active: true },
      });
      expect(response.status, `${fixture.id}: ${await response.clone().text()}`).toBe(201);
    }
    // Workers read an environment's integrations at most every 2 s.
    await new Promise((r) => setTimeout(r, 2_100));
    const before = new Map(fixtures.map((f) => [f.id, running.get(f.id)!.accepted()]));
    for (const fixture of fixtures) {
      const { to } = running.get(fixture.id)!.target;
      const channels = to.deviceTokens || to.webhookUrl || to.chatChannel
        ? [{ providerId: fixture.id, integrationIdentifier: `all-${fixture.id}`, credentials: { deviceTokens: to.deviceTokens, webhookUrl: to.webhookUrl, channel: to.chatChannel } }]
        : [];
      const subscriber = { subscriberId: `sub-${fixture.id}`, email: to.email, phone: to.phone, channels };
      const trigger = await svc.request('/v1/events/trigger', {
        method: 'POST',
        json: { name: `all-${fixture.channel}`, to: subscriber, payload: { route: fixture.id, orderId: 'A-1' }, transactionId: `tx-all-${fixture.id}` },
      });
      expect(trigger.status, fixture.id).toBe(201);
    }
    for (const fixture of fixtures) {
      const fake = running.get(fixture.id)!;
      const [step] = await waitFor(() => finishedSteps(svc.databaseUrl, `tx-all-${fixture.id}`), 60_000);
      expect(step.status, `${fixture.id}: ${JSON.stringify(step.details)}`).toBe('completed');
      expect(step.message?.provider_id).toBe(fixture.id);
      expect(fake.accepted(), fixture.id).toBe(before.get(fixture.id)! + 1);
      expect(step.message?.provider_message_id ?? undefined, fixture.id).toBe(fixture.unsupported?.messageId ? undefined : fake.lastId());
      expect(fake.lastWire()?.body, fixture.id).toContain('Order A-1 is on its way');
    }
  }, 120_000);
});
