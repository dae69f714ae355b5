import { randomUUID } from 'node:crypto';
import type { DashboardInvitation, DashboardRole, DashboardSession, DashboardUser } from '../entities/dashboard';
import type { DashboardInvitationRepository, InvitationAcceptance } from '../ports/dashboard-invitation-repository';
import type { DashboardSessionRepository } from '../ports/dashboard-session-repository';
import type { AdminGuardedChange, DashboardUserRepository, NewDashboardUser } from '../ports/dashboard-user-repository';
import type { LoginThrottle, ThrottleDecision, ThrottleKey } from '../ports/login-throttle';
import type { PasswordHasher } from '../ports/password-hasher';

/** Fakes of the dashboard's ports for domain tests, following the PostgreSQL adapters' contracts. */
export class InMemoryDashboardUsers implements DashboardUserRepository {
  readonly rows: Array<DashboardUser & { passwordHash: string }> = [];

  async countUsers() {
    return this.rows.length;
  }
  async list(organizationId: string) {
    return this.rows.filter((u) => u.organizationId === organizationId).map(strip);
  }
  async findById(organizationId: string, userId: string) {
    const row = this.rows.find((u) => u.id === userId && u.organizationId === organizationId);
    return row ? strip(row) : null;
  }
  async findByEmail(email: string) {
    const row = this.rows.find((u) => u.email === email);
    return row ? { user: strip(row), passwordHash: row.passwordHash } : null;
  }
  async passwordHash(userId: string) {
    return this.rows.find((u) => u.id === userId)?.passwordHash ?? null;
  }
  async create(user: NewDashboardUser) {
    if (this.rows.some((u) => u.email === user.email)) return null;
    const row = { ...user, id: randomUUID(), createdAt: new Date(), lastSignInAt: null };
    this.rows.push(row);
    return strip(row);
  }
  async setRole(organizationId: string, userId: string, role: DashboardRole): Promise<AdminGuardedChange> {
    const row = this.rows.find((u) => u.id === userId && u.organizationId === organizationId);
    if (!row) return 'not_found';
    if (role !== 'admin' && this.isLastAdmin(row)) return 'last_admin';
    row.role = role;
    return 'done';
  }
  async delete(organizationId: string, userId: string, allowLastAdmin = false): Promise<AdminGuardedChange> {
    const at = this.rows.findIndex((u) => u.id === userId && u.organizationId === organizationId);
    if (at < 0) return 'not_found';
    if (!allowLastAdmin && this.isLastAdmin(this.rows[at])) return 'last_admin';
    this.rows.splice(at, 1);
    this.onDelete?.(userId);
    return 'done';
  }
  async setPasswordHash(userId: string, passwordHash: string) {
    const row = this.rows.find((u) => u.id === userId);
    if (row) row.passwordHash = passwordHash;
    return Boolean(row);
  }
  async recordSignIn(userId: string, at: Date) {
    const row = this.rows.find((u) => u.id === userId);
    if (row) row.lastSignInAt = at;
  }
  /** The sessions' cascade, as the foreign key does it. */
  onDelete?: (userId: string) => void;

  private isLastAdmin(row: DashboardUser) {
    return row.role === 'admin' && this.rows.filter((u) => u.role === 'admin' && u.organizationId === row.organizationId).length === 1;
  }
}

function strip({ passwordHash: _, ...user }: DashboardUser & { passwordHash: string }): DashboardUser {
  return { ...user };
}

export class InMemoryDashboardInvitations implements DashboardInvitationRepository {
  readonly rows: Array<DashboardInvitation & { tokenHash: string }> = [];

  constructor(private readonly users: InMemoryDashboardUsers) {}

  async create(invitation: Omit<DashboardInvitation, 'id' | 'createdAt'>, tokenHash: string) {
    const row = { ...invitation, id: randomUUID(), createdAt: new Date(), tokenHash };
    this.rows.push(row);
    const { tokenHash: _, ...stored } = row;
    return stored;
  }
  async findByTokenHash(tokenHash: string, now: Date) {
    const row = this.rows.find((r) => r.tokenHash === tokenHash && r.expiresAt > now);
    if (!row) return null;
    const { tokenHash: _, ...stored } = row;
    return stored;
  }
  async listPending(organizationId: string, now: Date) {
    return this.rows.filter((r) => r.organizationId === organizationId && r.purpose === 'invitation' && r.expiresAt > now).map(({ tokenHash: _, ...r }) => r);
  }
  async revoke(organizationId: string, invitationId: string) {
    const at = this.rows.findIndex((r) => r.id === invitationId && r.organizationId === organizationId && r.purpose === 'invitation');
    if (at >= 0) this.rows.splice(at, 1);
    return at >= 0;
  }
  async accept(tokenHash: string, user: { email: string | null; passwordHash: string }, now: Date): Promise<InvitationAcceptance> {
    const at = this.rows.findIndex((r) => r.tokenHash === tokenHash && r.expiresAt > now);
    if (at < 0) return { outcome: 'invalid' };
    const invitation = this.rows[at];
    // Checked and created with no await between: the adapter's lock, in one thread.
    if (invitation.purpose === 'setup' && this.users.rows.length) return { outcome: 'users_exist' };
    const created = await this.users.create({ organizationId: invitation.organizationId, email: user.email ?? invitation.email!, role: invitation.role, passwordHash: user.passwordHash });
    if (!created) return { outcome: 'email_taken' };
    this.rows.splice(at, 1);
    return { outcome: 'accepted', user: created };
  }
  async purgeExpired(now: Date) {
    const before = this.rows.length;
    this.rows.splice(0, this.rows.length, ...this.rows.filter((r) => r.expiresAt > now));
    return before - this.rows.length;
  }
}

export class InMemoryDashboardSessions implements DashboardSessionRepository {
  readonly rows: Array<{ id: string; userId: string; tokenHash: string; createdAt: Date; lastSeenAt: Date; expiresAt: Date }> = [];

  constructor(private readonly users: InMemoryDashboardUsers) {
    users.onDelete = (userId) => void this.deleteForUser(userId);
  }

  async create(session: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }) {
    const id = randomUUID();
    this.rows.push({ ...session, id, lastSeenAt: session.createdAt });
    return id;
  }
  async findByTokenHash(tokenHash: string): Promise<DashboardSession | null> {
    const row = this.rows.find((r) => r.tokenHash === tokenHash);
    const user = row && this.users.rows.find((u) => u.id === row.userId);
    if (!row || !user) return null;
    const { passwordHash: _, ...plain } = user;
    return { id: row.id, user: plain, createdAt: row.createdAt, lastSeenAt: row.lastSeenAt, expiresAt: row.expiresAt };
  }
  async touch(sessionId: string, at: Date) {
    const row = this.rows.find((r) => r.id === sessionId);
    if (row) row.lastSeenAt = at;
  }
  async delete(sessionId: string) {
    const at = this.rows.findIndex((r) => r.id === sessionId);
    if (at >= 0) this.rows.splice(at, 1);
    return at >= 0;
  }
  async deleteForUser(userId: string, exceptSessionId?: string) {
    const before = this.rows.length;
    this.rows.splice(0, this.rows.length, ...this.rows.filter((r) => r.userId !== userId || r.id === exceptSessionId));
    return before - this.rows.length;
  }
  async purgeExpired(now: Date, idleSince: Date) {
    const before = this.rows.length;
    this.rows.splice(0, this.rows.length, ...this.rows.filter((r) => r.expiresAt > now && r.lastSeenAt > idleSince));
    return before - this.rows.length;
  }
}

export class InMemoryLoginThrottle implements LoginThrottle {
  readonly windows = new Map<string, { start: number; count: number }>();

  async attempt(keys: ThrottleKey[], windowMs: number, now: Date): Promise<ThrottleDecision> {
    let retryAfter = 0;
    for (const { key, limit } of keys) {
      const current = this.windows.get(key);
      const window = current && current.start + windowMs > now.getTime() ? current : { start: now.getTime(), count: 0 };
      window.count += 1;
      this.windows.set(key, window);
      if (window.count > limit) retryAfter = Math.max(retryAfter, Math.ceil((window.start + windowMs - now.getTime()) / 1000));
    }
    return retryAfter ? { allowed: false, retryAfterSeconds: retryAfter } : { allowed: true };
  }
  async forgive(accountKey: string, addressKey?: string) {
    this.windows.delete(accountKey);
    const address = addressKey ? this.windows.get(addressKey) : undefined;
    if (address) address.count = Math.max(0, address.count - 1);
  }
  async purge(before: Date) {
    let n = 0;
    for (const [key, w] of this.windows) if (w.start < before.getTime()) (this.windows.delete(key), n++);
    return n;
  }
}

/** Not a real hash: `hashed:<password>`, with the calls counted (the cost a test can observe). */
export class FakePasswordHasher implements PasswordHasher {
  calls = 0;

  async hash(password: string) {
    this.calls++;
    return `hashed:${password}`;
  }
  async verify(password: string, stored: string) {
    this.calls++;
    return { valid: stored === `hashed:${password}`, rehash: false };
  }
  async burn() {
    this.calls++;
  }
}
