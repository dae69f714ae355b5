import { token } from '../shared/token';
import type { DashboardInvitation, DashboardUser } from '../entities/dashboard';

export const DashboardInvitationRepository = token<DashboardInvitationRepository>('DashboardInvitationRepository');

export type InvitationAcceptance =
  | { outcome: 'accepted'; user: DashboardUser }
  /** Unknown, used, revoked or expired: the same answer for each, so a token's history is not told. */
  | { outcome: 'invalid' }
  /** A setup token once a user exists. */
  | { outcome: 'users_exist' }
  | { outcome: 'email_taken' };

export interface DashboardInvitationRepository {
  /** Stores the invitation; only the token's hash is kept. */
  create(invitation: Omit<DashboardInvitation, 'id' | 'createdAt'>, tokenHash: string): Promise<DashboardInvitation>;
  /** The unexpired invitation with this token hash, or null. */
  findByTokenHash(tokenHash: string, now: Date): Promise<DashboardInvitation | null>;
  /** Unexpired invitations (not setup tokens) of the organization, newest first. */
  listPending(organizationId: string, now: Date): Promise<DashboardInvitation[]>;
  /** false when no pending invitation of the organization has that id. */
  revoke(organizationId: string, invitationId: string): Promise<boolean>;
  /**
   * In ONE transaction: consumes the unexpired invitation (each token works once) and creates its
   * user with `email` (a setup token's chosen address; an invitation's own otherwise). A setup token
   * creates a user only while the organization has none, even when several are used at once.
   */
  accept(tokenHash: string, user: { email: string | null; passwordHash: string }, now: Date): Promise<InvitationAcceptance>;
  /** Drops expired invitations and setup tokens; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
