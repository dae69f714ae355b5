import type { DashboardUser } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlDashboardInvitationRepository } from './sql-dashboard-invitation-repository';
import { SqlDashboardSessionRepository } from './sql-dashboard-session-repository';
import { SqlDashboardUserRepository } from './sql-dashboard-user-repository';
import { SqlLoginThrottle } from './sql-login-throttle';
import { SqlOverviewRepository } from './sql-overview-repository';

const handle = useTestDatabase();
let org: string;
let env: string;
let users: SqlDashboardUserRepository;
let invitations: SqlDashboardInvitationRepository;
let sessions: SqlDashboardSessionRepository;
const DAY = 24 * 3_600_000;
const later = () => new Date(Date.now() + DAY);

beforeAll(async () => {
  const { organization, environments } = await new PrismaTenancyRepository(handle.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's1' }],
  });
  org = organization.id;
  env = environments[0].id;
  users = new SqlDashboardUserRepository(handle.db.pool);
  invitations = new SqlDashboardInvitationRepository(handle.db.pool);
  sessions = new SqlDashboardSessionRepository(handle.db.pool);
});

const addUser = async (email: string, role: DashboardUser['role'] = 'admin') => (await users.create({ organizationId: org, email, role, passwordHash: 'scrypt$h' }))!;

describe('dashboard users, invitations and sessions in PostgreSQL', () => {
  it('makes one first admin when two setup tokens are used at the same time, and voids the rest', async () => {
    await handle.db.pool.query('DELETE FROM dashboard_users');
    for (const hash of ['setup-a', 'setup-b', 'setup-c']) {
      await invitations.create({ organizationId: org, purpose: 'setup', email: null, role: 'admin', invitedBy: null, expiresAt: later() }, hash);
    }
    const results = await Promise.all([
      invitations.accept('setup-a', { email: 'ada@example.com', passwordHash: 'x' }, new Date()),
      invitations.accept('setup-b', { email: 'eve@example.com', passwordHash: 'x' }, new Date()),
    ]);
    // The second finds its token voided ('invalid') or a user there ('users_exist'), as the two interleave.
    expect(results.filter((r) => r.outcome === 'accepted')).toHaveLength(1);
    expect(await users.countUsers()).toBe(1);
    expect(await invitations.accept('setup-c', { email: 'mallory@example.com', passwordHash: 'x' }, new Date())).toEqual({ outcome: 'invalid' });
  });

  it('keeps an admin when two admins demote each other at the same time', async () => {
    await handle.db.pool.query('DELETE FROM dashboard_users');
    const [a, b] = [await addUser('a@example.com'), await addUser('b@example.com')];
    const results = await Promise.all([users.setRole(org, a.id, 'viewer'), users.setRole(org, b.id, 'viewer')]);
    expect(results.sort()).toEqual(['done', 'last_admin']);
    expect((await users.list(org)).filter((u) => u.role === 'admin')).toHaveLength(1);
    const admin = (await users.list(org)).find((u) => u.role === 'admin')!;
    expect(await users.delete(org, admin.id)).toBe('last_admin');
    expect(await users.delete(org, admin.id, true)).toBe('done');
    expect(await users.delete(org, '00000000-0000-4000-8000-000000000000')).toBe('not_found');
  });

  it('uses an invitation once, and refuses an email that is taken without losing the transaction', async () => {
    await handle.db.pool.query('DELETE FROM dashboard_users');
    const admin = await addUser('admin@example.com');
    await invitations.create({ organizationId: org, purpose: 'invitation', email: 'bob@example.com', role: 'viewer', invitedBy: admin.id, expiresAt: later() }, 'invite-bob');
    await invitations.create({ organizationId: org, purpose: 'invitation', email: 'admin@example.com', role: 'viewer', invitedBy: admin.id, expiresAt: later() }, 'invite-admin');
    expect((await invitations.listPending(org, new Date())).map((i) => i.email).sort()).toEqual(['admin@example.com', 'bob@example.com']);
    const accepted = await invitations.accept('invite-bob', { email: null, passwordHash: 'x' }, new Date());
    expect(accepted).toMatchObject({ outcome: 'accepted', user: { email: 'bob@example.com', role: 'viewer' } });
    expect(await invitations.accept('invite-bob', { email: null, passwordHash: 'x' }, new Date())).toEqual({ outcome: 'invalid' });
    expect(await invitations.accept('invite-admin', { email: null, passwordHash: 'x' }, new Date())).toEqual({ outcome: 'email_taken' });
    expect(await invitations.findByTokenHash('invite-bob', new Date())).toBeNull();
  });

  it('finds a session with its user by token hash, touches it, and ends it with its user', async () => {
    const user = await addUser('sessions@example.com', 'viewer');
    const created = new Date(Date.now() - 1000);
    const id = await sessions.create({ userId: user.id, tokenHash: 'token-1', createdAt: created, expiresAt: later() });
    await sessions.create({ userId: user.id, tokenHash: 'token-2', createdAt: created, expiresAt: later() });
    const found = await sessions.findByTokenHash('token-1');
    expect(found).toMatchObject({ id, user: { email: 'sessions@example.com', role: 'viewer' }, lastSeenAt: created });
    await sessions.touch(id, new Date());
    expect((await sessions.findByTokenHash('token-1'))!.lastSeenAt.getTime()).toBeGreaterThan(created.getTime());
    expect(await sessions.deleteForUser(user.id, id)).toBe(1);
    expect(await sessions.findByTokenHash('token-2')).toBeNull();
    await users.delete(org, user.id);
    expect(await sessions.findByTokenHash('token-1')).toBeNull();
  });
});

describe('SqlLoginThrottle', () => {
  it('counts attempts sent at once one by one, and starts a new window when the last has ended', async () => {
    const throttle = new SqlLoginThrottle(handle.db.pool);
    const now = new Date();
    const keys = [{ key: 'account:x@example.com', limit: 3 }, { key: 'address:10.0.0.1', limit: 100 }];
    const decisions = await Promise.all(Array.from({ length: 10 }, () => throttle.attempt(keys, 60_000, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    expect(decisions.find((d) => !d.allowed)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect((await throttle.attempt(keys, 60_000, new Date(now.getTime() + 60_000))).allowed).toBe(true);
    await throttle.forgive('account:x@example.com', 'address:10.0.0.1');
    const { rows } = await handle.db.pool.query("SELECT key, count FROM dashboard_login_attempts WHERE key LIKE '%10.0.0.1' OR key LIKE 'account:x%'");
    // The late attempt opened a new window for both keys (count 1), which the good one gave back.
    expect(rows).toEqual([{ key: 'address:10.0.0.1', count: 0 }]);
    expect(await throttle.purge(new Date(now.getTime() + 1))).toBe(0);
    expect(await throttle.purge(new Date(now.getTime() + 60_001))).toBe(1);
  });
});

describe('SqlOverviewRepository', () => {
  it('sums counts added at once by several processes, and reads them per hour and per day', async () => {
    const overview = new SqlOverviewRepository(handle.db.pool);
    const hour = (h: number) => new Date(Date.UTC(2026, 0, 7, h));
    const count = (h: number, metric: 'trigger' | 'lag', outcome = '') => ({ environmentId: env, hour: hour(h), metric, channel: metric === 'lag' ? 'email' : '', providerId: '', outcome, count: 1 });
    const batch = [count(9, 'trigger'), count(10, 'trigger'), count(10, 'lag', '250'), count(23, 'trigger')];
    await Promise.all(Array.from({ length: 20 }, () => overview.add(batch)));
    const hours = await overview.read(env, hour(10), hour(24), 'hour');
    expect(hours.map((c) => [c.hour.toISOString().slice(11, 13), c.metric, c.outcome, c.count]).sort()).toEqual([
      ['10', 'lag', '250', 20],
      ['10', 'trigger', '', 20],
      ['23', 'trigger', '', 20],
    ]);
    const days = await overview.read(env, hour(0), hour(24), 'day');
    expect(days.find((c) => c.metric === 'trigger')).toMatchObject({ hour: hour(0), count: 60 });
    expect(await overview.read('00000000-0000-4000-8000-000000000000', hour(0), hour(24), 'day')).toEqual([]);
    expect(await overview.purgeBefore(hour(10))).toBe(1);
  });
});
