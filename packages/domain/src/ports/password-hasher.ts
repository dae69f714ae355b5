import { token } from '../shared/token';

export const PasswordHasher = token<PasswordHasher>('PasswordHasher');

/** A memory-hard password hash; the stored form carries its own salt and parameters. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** `rehash`: the stored hash used weaker parameters than today's, so store a new one. */
  verify(password: string, stored: string): Promise<{ valid: boolean; rehash: boolean }>;
  /** Costs what `verify` costs, for an unknown account (its answer must take as long as a known one's). */
  burn(password: string): Promise<void>;
}
