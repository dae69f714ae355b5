import { token } from '../shared/token';
import type { DashboardSession } from '../entities/dashboard';

export const DashboardSessionRepository = token<DashboardSessionRepository>('DashboardSessionRepository');

export interface DashboardSessionRepository {
  /** Stores a session under the hash of its token (the token itself is never stored). */
  create(session: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<string>;
  /** The session with its user, expired or not (the caller judges), or null. */
  findByTokenHash(tokenHash: string): Promise<DashboardSession | null>;
  /** Records activity, for the idle expiry. */
  touch(sessionId: string, at: Date): Promise<void>;
  /** Ends one session; false when there was none. */
  delete(sessionId: string): Promise<boolean>;
  /** Ends every session of the user but `exceptSessionId`; returns how many. */
  deleteForUser(userId: string, exceptSessionId?: string): Promise<number>;
  /** Drops sessions past their absolute end or idle since before `idleSince`; returns how many. */
  purgeExpired(now: Date, idleSince: Date): Promise<number>;
}
