import { AesGcmCredentialCipher, ChannelCredentialCipher, HmacSubscriberTokens } from '@herald/adapters';
import { CredentialCipher, SubscriberTokens } from '@herald/domain';
import type { Wiring } from './binder';

/**
 * What the installation's one key protects: credentials and API key secrets at rest (the cipher),
 * subscribers' channel credentials and endpoint addresses (sealed value by value, so SQL compares
 * them: docs/configuration.md), and the Inbox's subscriber tokens (signed with a key derived from
 * it, so every process verifies them).
 */
export const security: Wiring = (bind, { encryptionKey }) => {
  bind.value(CredentialCipher, new AesGcmCredentialCipher(encryptionKey));
  bind.value(ChannelCredentialCipher, new ChannelCredentialCipher(encryptionKey));
  bind.value(SubscriberTokens, new HmacSubscriberTokens(encryptionKey.current));
};
