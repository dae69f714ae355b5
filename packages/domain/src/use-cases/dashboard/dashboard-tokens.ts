import { hash, randomBytes } from 'node:crypto';

/** A bearer secret for a session, invitation or setup: 256 random bits, URL-safe. */
export function newDashboardToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored as sha256: a leaked table holds nothing a browser could present. */
export function hashDashboardToken(token: string): string {
  return hash('sha256', token, 'hex');
}
