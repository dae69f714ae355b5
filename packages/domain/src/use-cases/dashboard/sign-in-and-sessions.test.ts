import { describe, expect, it } from 'vitest';
import type { DashboardUser } from '../../entities/dashboard';
import { FakePasswordHasher, InMemoryDashboardSessions, InMemoryDashboardUsers, InMemoryLoginThrottle } from '../../testing/in-memory-dashboard';
import { ChangeDashboardPassword } from './change-dashboard-password';
import { DashboardSessions } from './dashboard-sessions';
import { hashDashboardToken } from './dashboard-tokens';
import { SignInToDashboard } from './sign-in-to-dashboard';

const MINUTE = 60_000;

function setup(policy = { idleMs: 30 * MINUTE, absoluteMs: 8 * 60 * MINUTE }) {
  let now = Date.UTC(2026, 0, 1);
  const clock = { now: () => new Date(now) };
  const users = new InMemoryDashboardUsers();
  const sessionRows = new InMemoryDashboardSessions(users);
  const throttle = new InMemoryLoginThrottle();
  const hasher = new FakePasswordHasher();
  const sessions = new DashboardSessions(sessionRows, policy, clock);
  const signIn = new SignInToDashboard(users, throttle, hasher, sessions, clock, { perAccount: 3, perAddress: 5, windowMs: 15 * MINUTE });
  const changePassword = new ChangeDashboardPassword(users, throttle, hasher, sessions, clock, { perAccount: 3, perAddress: 5, windowMs: 15 * MINUTE });
  const addUser = async (email: string, password: string) =>
    (await users.create({ organizationId: 'org', email, role: 'admin', passwordHash: `hashed:${password}` })) as DashboardUser;
  return { users, sessionRows, throttle, hasher, sessions, signIn, changePassword, addUser, advance: (ms: number) => (now += ms) };
}

const PASSWORD = 'correct horse battery';

describe('SignInToDashboard', () => {
  it('opens a session whose token is stored only as its hash', async () => {
    const t = setup();
    await t.addUser('ada@example.com', PASSWORD);
    const result = await t.signIn.execute({ email: ' Ada@Example.com ', password: PASSWORD, clientAddress: '10.0.0.1' });
    if (result.outcome !== 'signed_in') throw new Error(result.outcome);
    expect(result.session.user.email).toBe('ada@example.com');
    expect(t.sessionRows.rows).toHaveLength(1);
    expect(t.sessionRows.rows[0].tokenHash).toBe(hashDashboardToken(result.session.token));
    expect(JSON.stringify(t.sessionRows.rows)).not.toContain(result.session.token);
    expect((await t.sessions.authenticate(result.session.token)).user.email).toBe('ada@example.com');
  });

  it('refuses a wrong password and an unknown email alike, paying the hashing cost for both', async () => {
    const t = setup();
    await t.addUser('ada@example.com', PASSWORD);
    expect(await t.signIn.execute({ email: 'ada@example.com', password: 'wrong password!', clientAddress: 'a' })).toEqual({ outcome: 'refused' });
    expect(await t.signIn.execute({ email: 'bob@example.com', password: PASSWORD, clientAddress: 'a' })).toEqual({ outcome: 'refused' });
    expect(t.hasher.calls).toBe(2);
    expect(t.sessionRows.rows).toHaveLength(0);
  });

  it('refuses an account after its limit of attempts, even with the right password, until the window ends', async () => {
    const t = setup();
    await t.addUser('ada@example.com', PASSWORD);
    for (let i = 0; i < 3; i++) expect((await t.signIn.execute({ email: 'ada@example.com', password: 'wrong password!', clientAddress: `10.0.0.${i}` })).outcome).toBe('refused');
    const throttled = await t.signIn.execute({ email: 'ada@example.com', password: PASSWORD, clientAddress: '10.0.0.9' });
    expect(throttled).toEqual({ outcome: 'throttled', retryAfterSeconds: 900 });
    expect(t.hasher.calls).toBe(3);
    t.advance(15 * MINUTE);
    expect((await t.signIn.execute({ email: 'ada@example.com', password: PASSWORD, clientAddress: '10.0.0.9' })).outcome).toBe('signed_in');
  });

  it('refuses an address after its limit across accounts; a good sign-in gives its attempt back', async () => {
    const t = setup();
    await t.addUser('ada@example.com', PASSWORD);
    for (let i = 0; i < 4; i++) await t.signIn.execute({ email: `guess${i}@example.com`, password: PASSWORD, clientAddress: 'evil' });
    expect((await t.signIn.execute({ email: 'ada@example.com', password: PASSWORD, clientAddress: 'evil' })).outcome).toBe('signed_in');
    expect((await t.signIn.execute({ email: 'ada@example.com', password: PASSWORD, clientAddress: 'evil' })).outcome).toBe('signed_in');
    expect((await t.signIn.execute({ email: 'guess9@example.com', password: PASSWORD, clientAddress: 'evil' })).outcome).toBe('refused');
    expect((await t.signIn.execute({ email: 'ada@example.com', password: PASSWORD, clientAddress: 'evil' })).outcome).toBe('throttled');
  });

  it('counts guesses sent at once before checking any of them', async () => {
    const t = setup();
    await t.addUser('ada@example.com', PASSWORD);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.signIn.execute({ email: 'ada@example.com', password: `wrong password ${i}`, clientAddress: `10.0.1.${i}` })));
    expect(results.filter((r) => r.outcome === 'refused')).toHaveLength(3);
    expect(results.filter((r) => r.outcome === 'throttled')).toHaveLength(7);
  });
});

describe('DashboardSessions', () => {
  it('ends a session idle for longer than the idle limit, and keeps one in use alive', async () => {
    const t = setup();
    const user = await t.addUser('ada@example.com', PASSWORD);
    const busy = await t.sessions.open(user);
    const idle = await t.sessions.open(user);
    for (let i = 0; i < 4; i++) {
      t.advance(10 * MINUTE);
      await t.sessions.authenticate(busy.token);
    }
    await expect(t.sessions.authenticate(idle.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('expired') });
    expect(t.sessionRows.rows).toHaveLength(1);
  });

  it('ends a session at its absolute end however busy it is', async () => {
    const t = setup({ idleMs: 30 * MINUTE, absoluteMs: 60 * MINUTE });
    const session = await t.sessions.open(await t.addUser('ada@example.com', PASSWORD));
    for (let i = 0; i < 5; i++) {
      t.advance(10 * MINUTE);
      await t.sessions.authenticate(session.token);
    }
    t.advance(10 * MINUTE);
    await expect(t.sessions.authenticate(session.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a missing, unknown or ended token', async () => {
    const t = setup();
    const session = await t.sessions.open(await t.addUser('ada@example.com', PASSWORD));
    await expect(t.sessions.authenticate(undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(t.sessions.authenticate('made-up')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await t.sessions.end((await t.sessions.authenticate(session.token)).id);
    await expect(t.sessions.authenticate(session.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('purges sessions past either end', async () => {
    const t = setup();
    const user = await t.addUser('ada@example.com', PASSWORD);
    await t.sessions.open(user);
    t.advance(31 * MINUTE);
    await t.sessions.open(user);
    expect(await t.sessions.purgeExpired()).toBe(1);
  });
});

describe('ChangeDashboardPassword', () => {
  it('needs the current password, then ends every other session of the user', async () => {
    const t = setup();
    const user = await t.addUser('ada@example.com', PASSWORD);
    const mine = await t.sessions.authenticate((await t.sessions.open(user)).token);
    const other = await t.sessions.open(user);
    await expect(t.changePassword.execute(mine, { currentPassword: 'not it at all', newPassword: 'a new long password' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { currentPassword: expect.anything() },
    });
    await expect(t.changePassword.execute(mine, { currentPassword: PASSWORD, newPassword: 'short' })).rejects.toMatchObject({ fields: { newPassword: expect.anything() } });
    expect(await t.changePassword.execute(mine, { currentPassword: PASSWORD, newPassword: 'a new long password' })).toEqual({ outcome: 'changed' });
    await expect(t.sessions.authenticate(other.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await t.signIn.execute({ email: 'ada@example.com', password: 'a new long password', clientAddress: 'a' })).outcome).toBe('signed_in');
  });

  it('limits guesses of the current password like sign-in attempts', async () => {
    const t = setup();
    const mine = await t.sessions.authenticate((await t.sessions.open(await t.addUser('ada@example.com', PASSWORD))).token);
    for (let i = 0; i < 3; i++) await t.changePassword.execute(mine, { currentPassword: `guess number ${i}`, newPassword: 'a new long password' }).catch(() => undefined);
    expect(await t.changePassword.execute(mine, { currentPassword: PASSWORD, newPassword: 'a new long password' })).toMatchObject({ outcome: 'throttled' });
  });
});
