import { DomainError } from '../errors';

/** What a dashboard user may do: an admin changes anything; a viewer reads, and never sees a secret. */
export const DASHBOARD_ROLES = ['admin', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export interface DashboardUser {
  id: string;
  organizationId: string;
  /** Trimmed and lower-cased (`normalizeEmail`): one account per address. */
  email: string;
  role: DashboardRole;
  createdAt: Date;
  lastSignInAt: Date | null;
}

/** A signed-in user as the server keeps it; the browser holds only the session's random token. */
export interface DashboardSession {
  id: string;
  user: DashboardUser;
  createdAt: Date;
  lastSeenAt: Date;
  /** The absolute end, whatever the activity. */
  expiresAt: Date;
}

/**
 * A one-time token that creates a user: `setup` makes the first admin (valid only while no user
 * exists; its email is chosen when used), `invitation` a user an admin invited.
 */
export interface DashboardInvitation {
  id: string;
  organizationId: string;
  purpose: 'setup' | 'invitation';
  /** null for a setup token. */
  email: string | null;
  role: DashboardRole;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** How long a session lives: `idleMs` without a request, `absoluteMs` at most. */
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 60 * 60_000, absoluteMs: 12 * 60 * 60_000 };

export const PASSWORD_MIN_LENGTH = 12;
/** Hashing cost does not depend on length, but a bound keeps bodies and logs sane. */
export const PASSWORD_MAX_LENGTH = 256;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The normalised address, or VALIDATION_FAILED naming `field`. */
export function validEmail(email: string, field = 'email'): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > 254 || !EMAIL.test(normalized)) throw DomainError.field(field, 'must be an email address', email);
  return normalized;
}

/** VALIDATION_FAILED naming `field` unless the password is long enough (length, not composition rules: NIST SP 800-63B). */
export function checkPassword(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw DomainError.field(field, `must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw DomainError.field(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

export function isDashboardRole(value: string): value is DashboardRole {
  return (DASHBOARD_ROLES as readonly string[]).includes(value);
}
