import { AesGcmCredentialCipher, HmacSubscriberTokens } from '@herald/adapters';
import { CredentialCipher, SubscriberTokens } from '@herald/domain';
import type { Wiring } from './binder';

/**
 * What the installation's one key protects: credentials and API key secrets at rest (the cipher),
 * and the Inbox's subscriber tokens (signed with a key derived from it, so every process verifies them).
 */
export const security: Wiring = (bind, { encryptionKey }) => {
  bind.value(CredentialCipher, new AesGcmCredentialCipher(encryptionKey));
  bind.value(SubscriberTokens, new HmacSubscriberTokens(encryptionKey.current));
};
