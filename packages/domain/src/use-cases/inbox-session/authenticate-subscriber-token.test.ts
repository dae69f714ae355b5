import { describe, expect, it } from 'vitest';
import type { Environment } from '../../entities/tenancy';
import type { SubscriberClaims, SubscriberTokens } from '../../ports/subscriber-tokens';
import { AuthenticateSubscriberToken } from './authenticate-subscriber-token';

const tokens: SubscriberTokens = { issue: (claims) => JSON.stringify(claims), verify: (token) => (token.startsWith('{') ? JSON.parse(token) : null) };
const claims = (securityVersion: number): SubscriberClaims => ({ environmentId: 'env-1', subscriberRef: 'r', subscriberId: 'ada', securityVersion });

function setup() {
  let clock = 0;
  const environments = new Map<string, Pick<Environment, 'inboxSecurityVersion'>>([['env-1', { inboxSecurityVersion: 2 }]]);
  let reads = 0;
  const tenancy = { findEnvironment: async (id: string) => (reads++, (environments.get(id) as Environment | undefined) ?? null) };
  const authenticate = new AuthenticateSubscriberToken(tokens, tenancy, 5_000, () => clock);
  return { authenticate, environments, reads: () => reads, advance: (ms: number) => (clock += ms) };
}

const bearer = (c: SubscriberClaims) => `Bearer ${JSON.stringify(c)}`;

describe('AuthenticateSubscriberToken', () => {
  it("accepts a token of the environment's current security version, reading the version once per interval", async () => {
    const { authenticate, reads } = setup();
    for (let i = 0; i < 3; i++) expect(await authenticate.execute(bearer(claims(2)))).toEqual(claims(2));
    expect(reads()).toBe(1);
  });

  it('refuses a token issued before the Inbox security changed, once the change is read', async () => {
    const { authenticate, environments, advance } = setup();
    await authenticate.execute(bearer(claims(2)));
    environments.set('env-1', { inboxSecurityVersion: 3 });
    // A token issued after the change is accepted even where the change has not been read yet.
    expect(await authenticate.execute(bearer(claims(3)))).toEqual(claims(3));
    advance(5_001);
    await expect(authenticate.execute(bearer(claims(2)))).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/Inbox security changed/) });
    expect(await authenticate.execute(bearer(claims(3)))).toEqual(claims(3));
  });

  it('refuses a missing, forged or orphaned token', async () => {
    const { authenticate, environments, advance } = setup();
    await expect(authenticate.execute(undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/missing/) });
    await expect(authenticate.execute('Bearer forged')).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/not valid/) });
    environments.delete('env-1');
    advance(5_001);
    await expect(authenticate.execute(bearer(claims(2)))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
