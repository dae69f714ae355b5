import { describe, expect, it } from 'vitest';
import type { Environment } from '../../entities/tenancy';
import type { SubscriberTokens } from '../../ports/subscriber-tokens';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { subscriberHash } from '../../rules/subscriber-hash';
import { InMemoryInboxRepository } from '../../testing/in-memory-inbox-repository';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import { StartInboxSession } from './start-inbox-session';

const SECRET = 'sk_production';

function environment(extra: Partial<Environment>): Environment {
  return { id: 'env-p', organizationId: 'o', name: 'Production', slug: 'production', signingSecret: 's', publicIdentifier: 'pk_p', inboxHmac: true, corsOrigins: [], inboxSecurityVersion: 4, ...extra };
}

/** The session's ports in memory: the inbox finds its owners among the subscribers. */
function setup(env: Environment, secrets = [SECRET]) {
  const subscribers = new InMemorySubscriberRepository();
  const inbox = new (class extends InMemoryInboxRepository {
    override async owner(environmentId: string, subscriberId: string) {
      const s = await subscribers.findById(environmentId, subscriberId);
      return s && { id: s.id, environmentId, subscriberId, firstName: s.firstName, lastName: s.lastName, avatar: s.avatar };
    }
  })();
  const tenancy = {
    findEnvironmentByIdentifier: async (identifier: string) => (identifier === env.publicIdentifier ? env : null),
    apiKeySecrets: async () => secrets,
  } as unknown as TenancyRepository;
  const tokens: SubscriberTokens = { issue: (claims) => JSON.stringify(claims), verify: (token) => JSON.parse(token) };
  return { subscribers, session: new StartInboxSession(tenancy, subscribers, inbox, tokens) };
}

const profile = { firstName: '<img src=x onerror=alert(1)>', email: 'attacker@example.com', data: { isAdmin: true } };

describe('StartInboxSession', () => {
  it('refuses a session without the HMAC where the environment requires it, says how to compute it, and writes nothing', async () => {
    const { session, subscribers } = setup(environment({}));
    const refused = session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'ada', subscriber: profile });
    await expect(refused).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/required: hex HMAC-SHA256 of the subscriberId keyed with the environment's secret API key.*createHmac\('sha256', secretKey\)\.update\(subscriberId\)\.digest\('hex'\)/) });
    const wrong = session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'ada', subscriberHash: subscriberHash(SECRET, 'bob') });
    await expect(wrong).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/subscriberHash is wrong/) });
    expect(subscribers.rows.size).toBe(0);
  });

  it('tells the operator when no secret key of the environment can verify a hash', async () => {
    const { session } = setup(environment({}), []);
    await expect(session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'ada', subscriberHash: subscriberHash(SECRET, 'ada') })).rejects.toMatchObject({
      fields: { subscriberHash: { messages: expect.arrayContaining([expect.stringMatching(/No secret key.*keys create --environment/)]) } },
    });
  });

  it('lets a verified session create the subscriber with its profile, and issues the token under the current security version', async () => {
    const { session, subscribers } = setup(environment({}));
    const started = await session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'ada', subscriberHash: subscriberHash(SECRET, 'ada'), subscriber: { firstName: 'Ada', email: 'ada@example.com' } });
    expect(started.verified).toBe(true);
    expect(JSON.parse(started.token)).toEqual({ environmentId: 'env-p', subscriberRef: started.owner.id, subscriberId: 'ada', securityVersion: 4 });
    expect(await subscribers.findById('env-p', 'ada')).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });
  });

  it('creates only the subscriber id for an unverified session, whatever profile it sends', async () => {
    const { session, subscribers } = setup(environment({ inboxHmac: false }));
    const started = await session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'mallory', subscriber: { ...profile, timezone: 'Europe/Paris' } });
    expect(started.verified).toBe(false);
    expect(await subscribers.findById('env-p', 'mallory')).toMatchObject({ firstName: null, email: null, data: null, timezone: null });
    // A hash that does not match is no proof either, even where none is required.
    await session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'eve', subscriberHash: subscriberHash('other', 'eve'), subscriber: profile });
    expect(await subscribers.findById('env-p', 'eve')).toMatchObject({ firstName: null, email: null, data: null });
  });

  it('refuses a browser origin the environment does not allow before writing anything', async () => {
    const { session, subscribers } = setup(environment({ inboxHmac: false, corsOrigins: ['https://app.example.com'] }));
    await expect(session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'ada', origin: 'https://evil.example.com' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(subscribers.rows.size).toBe(0);
    await session.execute({ applicationIdentifier: 'pk_p', subscriberId: 'ada', origin: 'https://app.example.com' });
    expect(subscribers.rows.size).toBe(1);
  });
});
