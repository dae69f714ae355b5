import { describe, expect, it } from 'vitest';
import type { Environment } from '../../entities/tenancy';
import { FakePasswordHasher, InMemoryDashboardInvitations, InMemoryDashboardSessions, InMemoryDashboardUsers } from '../../testing/in-memory-dashboard';
import { DashboardSessions } from './dashboard-sessions';
import { InviteDashboardUsers } from './invite-dashboard-users';
import { ManageDashboardUsers } from './manage-dashboard-users';
import { SetUpDashboard } from './set-up-dashboard';

const DAY = 24 * 3_600_000;
const PASSWORD = 'correct horse battery';

function setup() {
  let now = Date.UTC(2026, 0, 1);
  const clock = { now: () => new Date(now) };
  const users = new InMemoryDashboardUsers();
  const invitations = new InMemoryDashboardInvitations(users);
  const sessionRows = new InMemoryDashboardSessions(users);
  const hasher = new FakePasswordHasher();
  const sessions = new DashboardSessions(sessionRows, { idleMs: DAY, absoluteMs: 30 * DAY }, clock);
  const tenancy = { listEnvironments: async () => [{ id: 'env', organizationId: 'org' } as Environment] };
  return {
    users,
    invitations,
    sessionRows,
    hasher,
    sessions,
    setUp: new SetUpDashboard(users, invitations, tenancy, hasher, sessions, clock),
    invite: new InviteDashboardUsers(users, invitations, hasher, sessions, clock),
    manage: new ManageDashboardUsers(users, tenancy, hasher, sessions),
    advance: (ms: number) => (now += ms),
  };
}

describe('SetUpDashboard', () => {
  it('issues a token while no user exists; the token makes the first admin once', async () => {
    const t = setup();
    expect(await t.setUp.required()).toBe(true);
    const issued = await t.setUp.issueToken();
    const session = await t.setUp.complete({ token: issued!.token, email: 'Ada@Example.com', password: PASSWORD });
    expect(session.user).toMatchObject({ email: 'ada@example.com', role: 'admin', organizationId: 'org' });
    expect(await t.setUp.required()).toBe(false);
    expect(await t.setUp.issueToken()).toBeNull();
    await expect(t.setUp.complete({ token: issued!.token, email: 'eve@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('voids every other setup token once the first admin exists, even one used at the same time', async () => {
    const t = setup();
    const [a, b] = [await t.setUp.issueToken(), await t.setUp.issueToken()];
    const results = await Promise.allSettled([
      t.setUp.complete({ token: a!.token, email: 'ada@example.com', password: PASSWORD }),
      t.setUp.complete({ token: b!.token, email: 'eve@example.com', password: PASSWORD }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(t.users.rows).toHaveLength(1);
  });

  it('refuses a made-up or expired token without hashing the password', async () => {
    const t = setup();
    const issued = await t.setUp.issueToken();
    await expect(t.setUp.complete({ token: 'made-up', email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    t.advance(DAY + 1);
    await expect(t.setUp.complete({ token: issued!.token, email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(t.hasher.calls).toBe(0);
  });

  it('names a bad email or a short password', async () => {
    const t = setup();
    const { token } = (await t.setUp.issueToken())!;
    await expect(t.setUp.complete({ token, email: 'not an email', password: PASSWORD })).rejects.toMatchObject({ fields: { email: expect.anything() } });
    await expect(t.setUp.complete({ token, email: 'ada@example.com', password: 'short' })).rejects.toMatchObject({ fields: { password: expect.anything() } });
  });
});

describe('InviteDashboardUsers', () => {
  async function withAdmin() {
    const t = setup();
    const admin = await t.manage.create({ email: 'ada@example.com', role: 'admin', password: PASSWORD });
    return { ...t, admin };
  }

  it('invites by email with a role; the token, used once, makes that user and signs them in', async () => {
    const t = await withAdmin();
    const { invitation, token } = await t.invite.invite(t.admin, { email: 'Bob@Example.com', role: 'viewer' });
    expect(invitation).toMatchObject({ email: 'bob@example.com', role: 'viewer', invitedBy: t.admin.id });
    expect(await t.invite.listPending('org')).toHaveLength(1);
    expect((await t.invite.inspect(token)).email).toBe('bob@example.com');
    const session = await t.invite.accept({ token, password: PASSWORD });
    expect(session.user).toMatchObject({ email: 'bob@example.com', role: 'viewer' });
    await expect(t.invite.accept({ token, password: PASSWORD })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await t.invite.listPending('org')).toHaveLength(0);
  });

  it('refuses an expired or revoked invitation, and a setup token in its place', async () => {
    const t = await withAdmin();
    const expired = await t.invite.invite(t.admin, { email: 'bob@example.com', role: 'viewer' });
    t.advance(7 * DAY);
    await expect(t.invite.accept({ token: expired.token, password: PASSWORD })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const revoked = await t.invite.invite(t.admin, { email: 'bob@example.com', role: 'viewer' });
    await t.invite.revoke('org', revoked.invitation.id);
    await expect(t.invite.inspect(revoked.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(t.invite.revoke('org', revoked.invitation.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses to invite an existing user, and an invitation whose email became a user meanwhile', async () => {
    const t = await withAdmin();
    await expect(t.invite.invite(t.admin, { email: 'ADA@example.com', role: 'viewer' })).rejects.toMatchObject({ fields: { email: expect.anything() } });
    const { token } = await t.invite.invite(t.admin, { email: 'bob@example.com', role: 'viewer' });
    await t.manage.create({ email: 'bob@example.com', role: 'viewer', password: PASSWORD });
    await expect(t.invite.accept({ token, password: PASSWORD })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('ManageDashboardUsers', () => {
  it('never leaves the organization without an admin, except by the operator', async () => {
    const t = setup();
    const ada = await t.manage.create({ email: 'ada@example.com', role: 'admin', password: PASSWORD });
    await expect(t.manage.setRole('org', ada.id, 'viewer')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(t.manage.delete('org', ada.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    const bob = await t.manage.create({ email: 'bob@example.com', role: 'viewer', password: PASSWORD });
    expect((await t.manage.setRole('org', bob.id, 'admin')).role).toBe('admin');
    expect((await t.manage.setRole('org', ada.id, 'viewer')).role).toBe('viewer');
    await t.manage.delete('org', bob.id, { allowLastAdmin: true });
    expect((await t.manage.list()).map((u) => u.email)).toEqual(['ada@example.com']);
  });

  it('resetting a password ends every session of the user; deleting a user ends them too', async () => {
    const t = setup();
    const ada = await t.manage.create({ email: 'ada@example.com', role: 'admin', password: PASSWORD });
    const bob = await t.manage.create({ email: 'bob@example.com', role: 'viewer', password: PASSWORD });
    const adas = await t.sessions.open(ada);
    const bobs = await t.sessions.open(bob);
    await t.manage.resetPassword(ada.id, 'another long password');
    await expect(t.sessions.authenticate(adas.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await t.manage.delete('org', bob.id);
    await expect(t.sessions.authenticate(bobs.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(t.manage.byEmail('bob@example.com')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a second user with the same email, whatever its case', async () => {
    const t = setup();
    await t.manage.create({ email: 'ada@example.com', role: 'admin', password: PASSWORD });
    await expect(t.manage.create({ email: 'ADA@example.com', role: 'viewer', password: PASSWORD })).rejects.toMatchObject({ fields: { email: expect.anything() } });
  });
});
