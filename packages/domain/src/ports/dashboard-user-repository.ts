import { token } from '../shared/token';
import type { DashboardRole, DashboardUser } from '../entities/dashboard';

export const DashboardUserRepository = token<DashboardUserRepository>('DashboardUserRepository');

export interface NewDashboardUser {
  organizationId: string;
  email: string;
  role: DashboardRole;
  passwordHash: string;
}

/** What a change that must leave the organization an admin did: `last_admin` changed nothing. */
export type AdminGuardedChange = 'done' | 'not_found' | 'last_admin';

export interface DashboardUserRepository {
  /** Users of the installation (Herald runs one organization): 0 means setup is still to do. */
  countUsers(): Promise<number>;
  list(organizationId: string): Promise<DashboardUser[]>;
  findById(organizationId: string, userId: string): Promise<DashboardUser | null>;
  /** The user with this (normalised) email, unique in the installation, and their stored password hash, or null. */
  findByEmail(email: string): Promise<{ user: DashboardUser; passwordHash: string } | null>;
  /** The user's password hash, or null when the user does not exist. */
  passwordHash(userId: string): Promise<string | null>;
  /** null when the email is taken. */
  create(user: NewDashboardUser): Promise<DashboardUser | null>;
  /** Atomic: never leaves the organization without an admin. */
  setRole(organizationId: string, userId: string, role: DashboardRole): Promise<AdminGuardedChange>;
  /** Atomic: never leaves the organization without an admin unless `allowLastAdmin` (the operator's command). */
  delete(organizationId: string, userId: string, allowLastAdmin?: boolean): Promise<AdminGuardedChange>;
  /** false when the user does not exist. */
  setPasswordHash(userId: string, passwordHash: string): Promise<boolean>;
  recordSignIn(userId: string, at: Date): Promise<void>;
}
