import { describe, expect, it } from 'vitest';
import type { ChannelType } from '../entities/channel';
import type { NewIntegration } from '../entities/integration';
import { DomainError } from '../errors';
import type { IntegrationRepository } from '../ports/integration-repository';

export interface IntegrationRepositoryFixture {
  repo: IntegrationRepository;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const integration = (identifier: string, channel: ChannelType = 'email', extra: Partial<NewIntegration> = {}): NewIntegration => ({
  name: identifier.toUpperCase(),
  identifier,
  providerId: channel === 'sms' ? 'twilio' : 'sendgrid',
  channel,
  kind: 'delivery',
  credentials: { apiKey: `secret-${identifier}`, from: 'a@example.com' },
  configurations: { inboundWebhookEnabled: false },
  active: true,
  primary: false,
  conditions: [{ isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'payload' }] }],
  ...extra,
});

const isConflict = (e: unknown) => e instanceof DomainError && e.code === 'INTEGRATION_ALREADY_EXISTS';
const builtIns = [
  { providerId: 'herald-email', identifier: 'herald-email', name: 'Herald Email', channel: 'email' as const },
  { providerId: 'herald-sms', identifier: 'herald-sms', name: 'Herald SMS', channel: 'sms' as const },
];

/** The behaviour every IntegrationRepository has; run against the in-memory double and the SQL adapter. */
export function integrationRepositoryContract(name: string, setup: () => Promise<IntegrationRepositoryFixture>): void {
  describe(`IntegrationRepository contract: ${name}`, () => {
    it('creates with its credentials round-tripped, finds by id or identifier, and refuses a taken identifier', async () => {
      const { repo, environments: [env] } = await setup();
      const created = (await repo.create(env, integration('mail')))!;
      expect(created).toMatchObject({ ...integration('mail'), environmentId: env, priority: 0, deleted: false, deletedAt: null, deletedBy: null });
      expect(await repo.find(env, created.id)).toEqual(created);
      expect(await repo.find(env, 'mail')).toEqual(created);
      expect(await repo.find(env, 'unknown')).toBeNull();
      expect(await repo.create(env, integration('mail', 'sms'))).toBeNull();
      expect(await repo.list(env)).toEqual([created]);
    });

    it('keeps environments apart', async () => {
      const { repo, environments: [env, other] } = await setup();
      const mine = (await repo.create(env, integration('mail', 'email', { primary: true })))!;
      const theirs = (await repo.create(other, integration('mail', 'email', { primary: true })))!;
      expect(theirs.id).not.toBe(mine.id);
      expect(await repo.find(other, mine.id)).toBeNull();
      expect(await repo.update(other, mine.id, { name: 'x' })).toBeNull();
      expect(await repo.setPrimary(other, mine.id)).toBeNull();
      expect(await repo.softDelete(other, mine.id)).toBe(false);
      expect((await repo.findDeliveryCandidates(other, 'email')).map((i) => i.id)).toEqual([theirs.id]);
      expect(await repo.find(env, mine.id)).toMatchObject({ primary: true, deleted: false });
    });

    it('lists live integrations oldest first, optionally active ones only, with the channels that have an active one', async () => {
      const { repo, environments: [env] } = await setup();
      for (const id of ['first', 'second']) await repo.create(env, integration(id));
      await repo.create(env, integration('texts', 'sms', { active: false }));
      const gone = (await repo.create(env, integration('gone', 'push')))!;
      await repo.softDelete(env, gone.id, 'someone');
      expect((await repo.list(env)).map((i) => i.identifier)).toEqual(['first', 'second', 'texts']);
      expect((await repo.list(env, { activeOnly: true })).map((i) => i.identifier)).toEqual(['first', 'second']);
      expect([...(await repo.activeChannels(env))]).toEqual(['email']);
    });

    it('keeps one primary per channel: a primary newcomer or setPrimary demotes the old one', async () => {
      const { repo, environments: [env] } = await setup();
      const a = (await repo.create(env, integration('a', 'email', { primary: true })))!;
      const sms = (await repo.create(env, integration('s', 'sms', { primary: true })))!;
      const b = (await repo.create(env, integration('b', 'email', { primary: true })))!;
      const primaries = async () => (await repo.list(env)).filter((i) => i.primary).map((i) => i.identifier).sort();
      expect(await primaries()).toEqual(['b', 's']);
      await repo.update(env, a.id, { active: false });
      expect(await repo.setPrimary(env, a.id)).toMatchObject({ primary: true, active: true });
      expect(await primaries()).toEqual(['a', 's']);
      expect(await repo.find(env, sms.id)).toMatchObject({ primary: true });
      expect(await repo.find(env, b.id)).toMatchObject({ primary: false });
    });

    it('updates the defined changes; deactivating drops primary; a taken identifier is a conflict; a missing one is null', async () => {
      const { repo, environments: [env] } = await setup();
      const created = (await repo.create(env, integration('mail', 'email', { primary: true })))!;
      await repo.create(env, integration('other'));
      const updated = await repo.update(env, created.id, { name: 'Renamed', credentials: { apiKey: 'rotated' }, active: false });
      expect(updated).toMatchObject({ name: 'Renamed', identifier: 'mail', credentials: { apiKey: 'rotated' }, active: false, primary: false, conditions: created.conditions });
      expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
      await expect(repo.update(env, created.id, { identifier: 'other' })).rejects.toSatisfy(isConflict);
      expect(await repo.find(env, 'mail')).toMatchObject({ id: created.id });
      expect(await repo.update(env, '00000000-0000-4000-8000-000000000000', { name: 'x' })).toBeNull();
    });

    it('soft-deletes once: invisible afterwards, its identifier free again', async () => {
      const { repo, environments: [env] } = await setup();
      const created = (await repo.create(env, integration('mail', 'email', { primary: true })))!;
      expect(await repo.softDelete(env, created.id, 'ops')).toBe(true);
      expect(await repo.softDelete(env, created.id)).toBe(false);
      expect(await repo.find(env, created.id)).toBeNull();
      expect(await repo.update(env, created.id, { name: 'x' })).toBeNull();
      expect(await repo.setPrimary(env, created.id)).toBeNull();
      expect(await repo.create(env, integration('mail'))).toMatchObject({ identifier: 'mail' });
    });

    it('offers active integrations of a channel for delivery: the primary first, then by priority and age', async () => {
      const { repo, environments: [env] } = await setup();
      const old = (await repo.create(env, integration('old')))!;
      const young = (await repo.create(env, integration('young')))!;
      const primary = (await repo.create(env, integration('primary', 'email', { primary: true })))!;
      await repo.create(env, integration('off', 'email', { active: false }));
      await repo.create(env, integration('texts', 'sms'));
      expect((await repo.findDeliveryCandidates(env, 'email')).map((i) => i.id)).toEqual([primary.id, old.id, young.id]);
      expect(await repo.findDeliveryCandidates(env, 'push')).toEqual([]);
    });

    it('ensures built-ins once per environment, primary only where the channel has none, never recreating one once deleted', async () => {
      const { repo, environments: [env, other] } = await setup();
      await repo.create(env, integration('mine', 'email', { primary: true }));
      expect(await repo.ensureBuiltIns([env, other], builtIns)).toBe(4);
      expect(await repo.ensureBuiltIns([env, other], builtIns)).toBe(0);
      expect(await repo.find(env, 'herald-email')).toMatchObject({ primary: false, active: true, kind: 'delivery', credentials: {} });
      expect(await repo.find(env, 'herald-sms')).toMatchObject({ primary: true, channel: 'sms' });
      expect(await repo.find(other, 'herald-email')).toMatchObject({ primary: true });
      expect(await repo.retireBuiltIns([env], ['herald-sms', 'herald-push'])).toBe(1);
      expect(await repo.find(env, 'herald-sms')).toBeNull();
      expect(await repo.find(other, 'herald-sms')).not.toBeNull();
      expect(await repo.ensureBuiltIns([env], builtIns)).toBe(0);
      expect(await repo.retireBuiltIns([env], ['herald-sms'])).toBe(0);
    });
  });
}
