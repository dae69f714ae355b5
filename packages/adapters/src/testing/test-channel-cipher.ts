import { ChannelCredentialCipher } from '../security/channel-credential-cipher';

/** A fixed installation key for tests, so that what one test seals another can open. */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7);

/** The channel credentials cipher of that key, for repositories built by tests. */
export const testChannelCipher = new ChannelCredentialCipher(TEST_ENCRYPTION_KEY);
