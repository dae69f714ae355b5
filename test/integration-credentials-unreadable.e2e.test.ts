import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// An integration written under key A, read by a service that has only key B (the operator dropped A
// too early): the API lists it and deletes it, refuses what would need its credentials with a 409
// naming it, and delivery fails over past it with the reason, never a 500 or a stuck step.
const [A, B] = [randomBytes(32), randomBytes(32)];
const services: TestService[] = [];
let smtp: SmtpFake;
afterAll(async () => {
  for (const s of services.reverse()) await s.dispose();
  await smtp?.close();
});

const smtpCredentials = () => ({ host: smtp.host, port: String(smtp.port), from: 'shop@herald.test' });
const stored = async (svc: TestService, id: string) => (await queryDatabase<{ credentials: string }>(svc.databaseUrl, 'SELECT credentials FROM integrations WHERE id = $1', [id]))[0].credentials;

describe('integration credentials no configured key opens', () => {
  it('are listed, refused with a 409 where needed, failed over in delivery, and deletable', async () => {
    smtp = await startSmtpFake();
    const first = await startService({ HERALD_ENCRYPTION_KEY: A.toString('base64'), HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
    services.push(first);
    const created = await first.request('/v1/integrations', { method: 'POST', json: { providerId: 'nodemailer', channel: 'email', identifier: 'sealed-a', name: 'Sealed under A', credentials: smtpCredentials(), active: true } });
    expect(created.status).toBe(201);
    const sealed = (await created.json()).data._id as string;
    expect((await first.request(`/v1/integrations/${sealed}/set-primary`, { method: 'POST' })).status).toBe(200);
    await first.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'ada', email: 'ada@example.com' } });
    await insertWorkflowWithSteps(first.databaseUrl, { workflowId: 'shipped' }, [{ type: 'email', stepId: 'mail', controlValues: { subject: 'Order {{payload.orderId}}', body: '<p>Shipped</p>' } }]);
    await first.stop();

    const svc = await first.startPeer({ HERALD_ENCRYPTION_KEY: B.toString('base64') });
    services.push(svc);
    const list = await svc.request('/v1/integrations');
    expect(list.status).toBe(200);
    expect((await list.json()).data.map((i: { identifier: string }) => i.identifier)).toContain('sealed-a');
    expect((await svc.request('/v1/integrations/active')).status).toBe(200);

    const before = await stored(svc, sealed);
    const merge = await svc.request(`/v1/integrations/${sealed}`, { method: 'PUT', json: { credentials: { from: 'other@herald.test' } } });
    expect(merge.status).toBe(409);
    const refusal = await merge.json();
    expect(JSON.stringify(refusal)).toContain('the credentials of integration sealed-a cannot be decrypted');
    expect(JSON.stringify(refusal)).not.toContain(before);
    expect(await stored(svc, sealed)).toBe(before);
    expect((await svc.request(`/v1/integrations/${sealed}`, { method: 'PUT', json: { name: 'Renamed' } })).status).toBe(200);

    const readable = await svc.request('/v1/integrations', { method: 'POST', json: { providerId: 'nodemailer', channel: 'email', identifier: 'smtp-b', name: 'Written under B', credentials: smtpCredentials(), active: true } });
    expect(readable.status).toBe(201);
    expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'shipped', to: 'ada', payload: { orderId: 'U-1' }, transactionId: 'tx-unreadable' } })).status).toBe(201);
    const [step] = await waitFor(() => finishedSteps(svc.databaseUrl, 'tx-unreadable'), 30_000);
    expect(step.status).toBe('completed');
    expect(step.details[0]).toMatchObject({ status: 'Failed', provider_id: 'nodemailer' });
    expect(step.details[0].detail).toContain('provider error: nodemailer (sealed-a): the credentials of integration sealed-a cannot be decrypted');
    expect(step.details[0].detail).toContain('permanent, not retried');
    expect(step.details[1].detail).toMatch(/^failing over from nodemailer \(sealed-a\) to /);
    expect(step.details.at(-1)).toMatchObject({ status: 'Success' });
    expect(smtp.messages.map((m) => m.mail.subject)).toEqual(['Order U-1']);

    expect((await svc.request(`/v1/integrations/${sealed}`, { method: 'DELETE' })).status).toBeLessThan(300);
    const after = await (await svc.request('/v1/integrations')).json();
    expect(after.data.map((i: { identifier: string }) => i.identifier)).not.toContain('sealed-a');
  }, 180_000);
});
