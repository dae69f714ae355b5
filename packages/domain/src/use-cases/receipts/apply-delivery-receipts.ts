import type { InboundReceiptRequest, ReceiptOutcome } from '../../entities/delivery-receipt';
import type { ReceiptObserver, ReceiptReaders } from '../../ports/receipt-readers';
import type { ReceiptRepository } from '../../ports/receipt-repository';
import { detailStatusOf, statusAfterReceipt } from '../../rules/receipt-status';

export interface ApplyDeliveryReceiptsInput {
  integrationId: string;
  request: InboundReceiptRequest;
}

export type ApplyDeliveryReceiptsResult =
  | { outcome: 'unknown_integration' }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'accepted'; counts: Record<ReceiptOutcome, number> };

/**
 * A provider's delivery receipts for one integration: verified with the provider's own signature
 * scheme and the integration's credentials, then applied once each to the messages that
 * integration sent. An integration whose provider sends no verifiable receipts is unknown here.
 */
export class ApplyDeliveryReceipts {
  constructor(
    private readonly receipts: ReceiptRepository,
    private readonly readers: ReceiptReaders,
    private readonly observer: ReceiptObserver,
  ) {}

  async execute({ integrationId, request }: ApplyDeliveryReceiptsInput): Promise<ApplyDeliveryReceiptsResult> {
    const integration = await this.receipts.findIntegration(integrationId);
    const reader = integration && this.readers.forProvider(integration.providerId);
    if (!integration || !reader) {
      this.observer.received(integration?.providerId ?? 'unknown', 'unknown_integration');
      return { outcome: 'unknown_integration' };
    }
    const reading = await reader.read(request, integration.credentials);
    if (!reading.verified) {
      this.observer.received(integration.providerId, 'rejected');
      return { outcome: 'rejected', reason: reading.reason };
    }
    const outcomes = await this.receipts.apply(
      integration,
      reading.receipts.map((receipt) => ({
        receipt,
        status: (current: string) => statusAfterReceipt(current, receipt.event),
        detailStatus: detailStatusOf(receipt.event),
      })),
    );
    const counts: Record<ReceiptOutcome, number> = { applied: 0, duplicate: 0, unmatched: 0 };
    for (const outcome of outcomes) {
      counts[outcome] += 1;
      this.observer.received(integration.providerId, outcome);
    }
    return { outcome: 'accepted', counts };
  }
}
