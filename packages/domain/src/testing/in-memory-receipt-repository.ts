import type { ReceiptIntegration, ReceiptOutcome } from '../entities/delivery-receipt';
import type { ReceiptChange, ReceiptRepository } from '../ports/receipt-repository';

export interface ReceiptMessage {
  id: string;
  integrationId: string;
  providerMessageId: string;
  status: string;
}

/**
 * Receipts in memory, as the SQL adapter keeps them: messages, their Webhook execution details,
 * the receipt ids applied per integration, and the outbound events a status change writes (the
 * SQL adapter's database trigger writes `message.delivered` / `message.bounced` / `message.failed`).
 */
export class InMemoryReceiptRepository implements ReceiptRepository {
  readonly integrations = new Map<string, ReceiptIntegration>();
  readonly messages: ReceiptMessage[] = [];
  readonly details: Array<{ messageId: string; status: string; source: 'Webhook'; detail: string; raw: string }> = [];
  readonly events: Array<{ type: string; messageId: string }> = [];
  private readonly applied = new Set<string>();

  async findIntegration(integrationId: string): Promise<ReceiptIntegration | null> {
    return this.integrations.get(integrationId) ?? null;
  }

  async apply(integration: ReceiptIntegration, changes: ReceiptChange[]): Promise<ReceiptOutcome[]> {
    return changes.map(({ receipt, status, detailStatus }) => {
      const key = `${integration.id}:${receipt.receiptId}`;
      if (this.applied.has(key)) return 'duplicate';
      const message = this.messages.find((m) => m.integrationId === integration.id && m.providerMessageId === receipt.providerMessageId);
      if (!message) return 'unmatched';
      this.applied.add(key);
      const next = status(message.status);
      if (next) {
        message.status = next;
        this.events.push({ type: `message.${next}`, messageId: message.id });
      }
      this.details.push({ messageId: message.id, status: detailStatus, source: 'Webhook', detail: receipt.detail, raw: receipt.raw });
      return 'applied';
    });
  }
}
