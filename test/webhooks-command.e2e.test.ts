import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorCommandWith } from './support/operator-command';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { queryDatabase } from './support/workflow-rows';

// Issue 45: `pnpm herald webhooks ...`, the operator's way to manage outbound webhook endpoints, over
// the same use cases as the API. The receiver verifies every request with the Standard Webhooks library.
// Each command is a process of its own (a second or more on a busy machine): the tests allow for it.
const COMMANDS_MS = 120_000;
let svc: TestService;
let novu: Novu;
let receiver: WebhookReceiver;
let endpointId: string;

const local = { HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
/** `pnpm herald webhooks <args>` on the service's database; `env` over the defaults (private addresses allowed, as for the service). */
const webhooks = (args: string[], env: Record<string, string> = local) => operatorCommandWith({ DATABASE_URL: svc.databaseUrl, ...env }, '', 'webhooks', ...args);
const secretIn = (printed: string) => /^\s+(whsec_\S+)\s*$/m.exec(printed)![1];
const endpoints = async () => (await (await svc.request('/v1/webhooks/endpoints')).json()).data as Array<Record<string, unknown>>;
const subscriberCreated = (subscriberId: string) =>
  waitFor(async () => receiver.accepted.find((e) => e.type === 'subscriber.created' && e.data.subscriberId === subscriberId), 15_000);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  svc = await startService({ ...local, HERALD_WEBHOOK_RETRY_SCHEDULE_MS: '0,200,200,200,200,200,200,200' });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await receiver?.close();
});

describe('pnpm herald webhooks', () => {
  it('creates an endpoint in the environment chosen, prints its secret once, and the endpoint delivers signed events', async () => {
    const created = await webhooks(['create', '--url', receiver.url, '--description', 'CRM', '--event-types', 'subscriber.created,subscriber.updated', '--environment', 'development']);
    receiver.secret = secretIn(created);
    endpointId = /^([0-9a-f-]{36})\tenabled\t/m.exec(created)![1];
    expect(created).toContain(`${endpointId}\tenabled\t${receiver.url}\tsubscriber.created,subscriber.updated\tCRM`);
    const listed = await webhooks(['list']);
    expect(listed.trim()).toBe(`${endpointId}\tenabled\t${receiver.url}\tsubscriber.created,subscriber.updated\tCRM`);
    expect(await webhooks(['list', '--environment', 'production'])).toBe('production: no webhook endpoints\n');
    // The API's key is the development environment's: it sees the same endpoint.
    expect(await endpoints()).toEqual([expect.objectContaining({ id: endpointId, url: receiver.url, description: 'CRM', eventTypes: ['subscriber.created', 'subscriber.updated'] })]);

    await novu.subscribers.create({ subscriberId: 'cmd-ada', firstName: 'Ada' });
    expect((await subscriberCreated('cmd-ada')).data).toMatchObject({ firstName: 'Ada' });
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
  }, COMMANDS_MS);

  it('updates, disables and enables it; rotating keeps the old secret signing for the overlap, and an overlap of 0 ends it', async () => {
    expect(await webhooks(['update', endpointId, '--event-types', 'all', '--description', ''])).toContain(`${endpointId}\tenabled\t${receiver.url}\tall event types\t`);
    expect(await endpoints()).toEqual([expect.objectContaining({ eventTypes: [], description: null })]);
    expect(await webhooks(['disable', endpointId])).toContain(`${endpointId}\tdisabled\t`);
    await novu.subscribers.create({ subscriberId: 'cmd-unheard' });
    expect(await webhooks(['enable', endpointId])).toContain(`${endpointId}\tenabled\t`);

    const first = receiver.secret;
    const rotated = await webhooks(['rotate-secret', endpointId, '--overlap-seconds', '3600']);
    expect(rotated).toMatch(/the previous one also signs until \d{4}-/);
    const second = secretIn(rotated);
    expect(second).not.toBe(first);
    // During the overlap each request carries both signatures: either secret verifies it.
    await novu.subscribers.create({ subscriberId: 'cmd-old-secret' });
    await subscriberCreated('cmd-old-secret');
    receiver.secret = second;
    await novu.subscribers.create({ subscriberId: 'cmd-new-secret' });
    await subscriberCreated('cmd-new-secret');

    const third = secretIn(await webhooks(['rotate-secret', endpointId, '--overlap-seconds', '0']));
    await novu.subscribers.create({ subscriberId: 'cmd-after' });
    await waitFor(async () => receiver.requests.some((r) => !r.verified), 10_000); // signed with the third secret only
    receiver.secret = third;
    await subscriberCreated('cmd-after'); // its retry verifies with the newest
    expect(receiver.accepted.some((e) => e.data.subscriberId === 'cmd-unheard')).toBe(false); // written while disabled: no delivery
  }, COMMANDS_MS);

  it('refuses bad input with one line naming the argument and a non-zero exit, changing nothing', async () => {
    // What a command could change (the dispatcher keeps failingSince and updatedAt meanwhile).
    const stored = () => queryDatabase(svc.databaseUrl, 'SELECT id, url, description, event_types, enabled, secrets, previous_secret_until FROM webhook_endpoints ORDER BY id');
    const before = await stored();
    const refusals: Array<[string[], string, Record<string, string>?]> = [
      [['create'], '--url: required'],
      [['create', '--url', 'ftp://example.com/hooks'], '--url: must be an http or https URL'],
      [['create', '--url', 'http://127.0.0.1:9/hooks'], '--url: must be an https URL', {}],
      [['create', '--url', 'https://example.com/hooks', '--event-types', 'message.sent,message.teleported'], "--event-types: unknown event type 'message.teleported'"],
      [['create', '--url', 'https://example.com/hooks', '--colour', 'red'], "Unknown option '--colour'"],
      [['create', '--url', 'https://example.com/hooks', '--environment', 'staging'], "Environment 'staging' was not found"],
      [['update', endpointId], 'webhooks update: give at least one of --url, --description, --event-types'],
      [['update', endpointId, '--url', 'https://user:pw@example.com/'], '--url: must not carry credentials'],
      [['update', '0190a000-0000-7000-8000-000000000000', '--url', 'https://example.com/'], "Webhook endpoint '0190a000-0000-7000-8000-000000000000' was not found"],
      [['disable', endpointId, '--url', 'https://example.com/'], '--url: not an option of webhooks disable'],
      [['delete'], "<id>: webhooks delete needs the endpoint's id"],
      [['rotate-secret', endpointId, '--overlap-seconds', 'soon'], '--overlap-seconds: a whole number of seconds from 0 to 604800'],
      [['rotate-secret', endpointId, '--overlap-seconds', '604801'], '--overlap-seconds: a whole number'],
      [['rotate-secret', endpointId, '--overlap-seconds'], "Option '--overlap-seconds <value>' argument missing"],
    ];
    for (const [args, message, env] of refusals) {
      const refused = await webhooks(args, env).then(
        (out) => ({ exitCode: 0, stderr: out }),
        (error: { exitCode: number; stderr: string }) => error,
      );
      expect(refused.exitCode, args.join(' ')).toBe(1);
      expect(refused.stderr.trim(), args.join(' ')).toContain(message);
      expect(refused.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(await stored()).toEqual(before);
    expect(await webhooks(['teleport'], local).catch((e: { exitCode: number; stderr: string }) => e)).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('webhooks rotate-secret') });
  }, 3 * COMMANDS_MS);

  it('deletes it', async () => {
    expect(await webhooks(['delete', endpointId])).toContain(`Deleted webhook endpoint ${endpointId}`);
    expect(await endpoints()).toEqual([]);
    expect(await webhooks(['list'])).toBe('development: no webhook endpoints\n');
  }, COMMANDS_MS);
});
