import { token } from '../shared/token';

export const CredentialCipher = token<CredentialCipher>('CredentialCipher');

/** Authenticated encryption of secrets at rest (integration credentials, connection tokens). */
export interface CredentialCipher {
  /** A self-describing envelope string; a fresh random IV each call, so equal inputs differ. */
  encrypt(value: Record<string, unknown>): string;
  /** Throws when the envelope was altered or was made with another key. */
  decrypt(envelope: string): Record<string, unknown>;
}
