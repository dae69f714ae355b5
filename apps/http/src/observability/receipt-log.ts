import type { ReceiptObserver } from '@herald/domain';
import type { Logger } from 'pino';
import type { HeraldMetrics } from './metrics';

/** What the operator hears of provider receipts: refused calls logged, every outcome counted when metrics are on. */
export class ReceiptLog implements ReceiptObserver {
  constructor(
    private readonly logger: Logger,
    private readonly metrics?: HeraldMetrics,
  ) {}

  received(providerId: string, outcome: Parameters<ReceiptObserver['received']>[1]): void {
    // Provider ids are a bounded set; an unknown integration is labelled `unknown`, never by the id it named.
    this.metrics?.receipts.inc({ provider: providerId, outcome });
    if (outcome === 'rejected' || outcome === 'unknown_integration') this.logger.warn({ providerId, outcome }, 'provider receipt refused: not applied');
  }
}
