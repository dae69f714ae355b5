import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedHttpClient } from '../../http/guarded-http-client';
import { StaticProviderRegistry } from '../static-provider-registry';
import type { ProviderFake, RunningProviderFake, Target } from './provider-fake';

/** The deadline of one provider call in the contract: a hung service must fail the send this fast. */
export const CONTRACT_TIMEOUT_MS = 1_000;

const SECRET_FIELDS = /key|secret|password|token|serviceAccount/i;

/** Every credential value that is a secret, and the parts of a service account that are. */
function secretsOf(target: Target): string[] {
  const values = Object.entries(target.credentials)
    .filter(([field, value]) => SECRET_FIELDS.test(field) && !field.endsWith('RequestHeader') && typeof value === 'string' && value.length >= 6)
    .map(([, value]) => value as string);
  const account = target.credentials.serviceAccount;
  if (typeof account === 'string') values.push(JSON.parse(account).private_key.split('\n')[1]);
  return [...values, ...(target.auth ? [target.auth.accessToken] : [])];
}

function messageFor(channel: OutboundMessage['channel'], target: Target, overrides: Record<string, unknown> = {}): OutboundMessage {
  return {
    channel,
    to: { subscriberId: 'ada', ...target.to },
    subject: 'Order A-1',
    body: channel === 'email' ? '<p>Order A-1 is on its way</p>' : 'Order A-1 is on its way',
    data: { orderId: 'A-1' },
    transactionId: 'tx-contract',
    idempotencyKey: `job-${Math.random().toString(36).slice(2)}`,
    overrides,
    ...(target.auth ? { auth: target.auth } : {}),
  };
}

/** What a send leaves in an execution detail: the receipt's raw answer, or the error's message, code and raw answer. */
function detailText(outcome: ProviderReceipt | ProviderError): string {
  return outcome instanceof ProviderError ? `${outcome.message} ${outcome.raw ?? ''} ${JSON.stringify(outcome.extra)}` : `${outcome.providerMessageId} ${outcome.raw ?? ''}`;
}

/**
 * The behaviour every sending provider shares, run through the registry (as the engine calls it)
 * against a loopback fake of the provider's service speaking its wire protocol: accepted sends give
 * the service's message id, 5xx and timeouts are transient, a 429's Retry-After is honoured, bad
 * credentials and invalid recipients are permanent, overrides reach the wire, and no secret ever
 * reaches what the engine keeps (execution details).
 */
export function sendingProviderContract(fixture: ProviderFake): void {
  describe(`sending provider contract: ${fixture.id}`, () => {
    let fake: RunningProviderFake;
    let registry: StaticProviderRegistry;
    let provider: DeliveryProvider;
    const send = async (target: Target, overrides?: Record<string, unknown>) => {
      const outcome = await provider.send(messageFor(fixture.channel, target, overrides), target.credentials as Credentials).catch((error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        return error;
      });
      // No case may leak a secret into what the engine keeps, whatever the service answered.
      const text = detailText(outcome);
      for (const secret of secretsOf(target)) expect(text, 'a secret reached the execution detail').not.toContain(secret);
      return outcome;
    };

    beforeAll(async () => {
      fake = await fixture.start();
      const endpoints = fake.endpoint ? { [fixture.id]: fake.endpoint } : {};
      registry = new StaticProviderRegistry('herald', new GuardedHttpClient(true), { allowPrivateNetworks: true, endpoints, timeoutMs: CONTRACT_TIMEOUT_MS });
      provider = registry.get(fixture.id)!;
      // One send first loads the provider's SDK, which on a busy machine can take longer than the
      // contract's short deadline; the cases below time the calls, not the import.
      await provider.send(messageFor(fixture.channel, fake.target), fake.target.credentials).catch(() => undefined);
    });
    afterAll(async () => {
      await registry?.close();
      await fake?.close();
    });

    it('an accepted send returns the message id the service gave', async () => {
      const receipt = await send(fake.target);
      expect(receipt).not.toBeInstanceOf(ProviderError);
      expect((receipt as ProviderReceipt).providerMessageId).toBe(fixture.unsupported?.messageId ? undefined : fake.lastId());
      expect(fake.lastWire()).toMatchObject({ to: [expect.stringMatching(/.+/)] });
    });

    it('a server failure (5xx) is transient', async () => {
      fake.failNext('server-error');
      expect(await send(fake.target)).toMatchObject({ retryable: true });
    });

    it('no answer within the deadline is transient', async () => {
      fake.failNext('hang');
      const started = Date.now();
      expect(await send(fake.target)).toMatchObject({ retryable: true });
      expect(Date.now() - started).toBeLessThan(CONTRACT_TIMEOUT_MS * 4);
    });

    it('a rate limit is transient, with its Retry-After', async () => {
      fake.failNext('rate-limited');
      const failure = await send(fake.target);
      expect(failure).toMatchObject({ retryable: true });
      if (!fixture.unsupported?.retryAfter) expect((failure as ProviderError).extra.retryAfterMs).toBe(7_000);
    });

    it('bad credentials are permanent', async () => {
      expect(await send(fake.badCredentials)).toMatchObject({ retryable: false });
    });

    it.skipIf(Boolean(fixture.unsupported?.invalidRecipient))('an invalid recipient is permanent', async () => {
      const before = fake.accepted();
      expect(await send(fake.invalidRecipient)).toMatchObject({ retryable: false });
      expect(fake.accepted()).toBe(before);
    });

    it("the trigger's overrides reach the wire", async () => {
      const receipt = await send(fake.target, fixture.overrides.given);
      expect(receipt).not.toBeInstanceOf(ProviderError);
      expect(fake.lastWire()).toMatchObject(fixture.overrides.wire);
    });

    it('no secret appears in an execution detail, even when the service echoes the request in its error', async () => {
      // Every failure answer of the fakes carries the request's headers back; each send checks its own detail.
      await send(fake.badCredentials);
      fake.failNext('server-error');
      await send(fake.target);
    });
  });
}
