import { SqlReceiptRepository, StaticReceiptReaders } from '@herald/adapters';
import { ApplyDeliveryReceipts, CredentialCipher, HttpClient, ReceiptObserver, ReceiptReaders, ReceiptRepository } from '@herald/domain';
import type { Wiring } from './binder';

/** Provider delivery receipts: each provider's reader (its signature scheme) and their effect on messages. */
export const receipts: Wiring = (bind, { db, config, logger, observability }) => {
  bind.factory(ReceiptRepository, [CredentialCipher], (cipher) => new SqlReceiptRepository(db.pool, cipher));
  // Certificates and confirmations go through the outbound guard, like every call Herald makes.
  bind.factory(ReceiptReaders, [HttpClient], (http) => new StaticReceiptReaders(http, { snsTrustedOrigin: config.snsTrustedOrigin }));
  bind.value(ReceiptObserver, observability.receiptObserver(logger));
  bind.construct(ApplyDeliveryReceipts, [ReceiptRepository, ReceiptReaders, ReceiptObserver]);
};
