import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the queue gauges read at scrape time (one database round trip per scrape at most). */
export interface BacklogReader {
  read(): Promise<{ dueSteps: number; lagSeconds: number; delayedSteps: number; openFanouts: number; openDigests: number | null }>;
}

/**
 * Every Prometheus metric Herald exports, in one registry. Labels are bounded sets (route templates,
 * status classes, channels, provider ids, outcome and reason codes): never subscriber, event or
 * transaction ids, so a scrape stays small however much traffic there was.
 */
export class HeraldMetrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly triggers = new Counter({
    name: 'herald_triggers_total',
    help: 'Triggers by outcome (accepted, deduplicated, rejected) and, for rejected ones, the reason',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly fanoutRecipients = new Counter({
    name: 'herald_fanout_recipients_total',
    help: 'Topic recipients expanded by fan-out (notified) or filtered out by their subscription preferences',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly deliveries = new Counter({
    name: 'herald_deliveries_total',
    help: 'Channel step deliveries by channel, provider and outcome (sent, skipped, failed; retried and failed_over per failed provider attempt)',
    labelNames: ['channel', 'provider', 'outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly steps = new Counter({
    name: 'herald_steps_total',
    help: 'Workflow step runs recorded, by step type and resulting status',
    labelNames: ['type', 'status'] as const,
    registers: [this.registry],
  });

  readonly providerCalls = new Histogram({
    name: 'herald_provider_call_duration_seconds',
    help: 'Duration of provider send calls by provider id and result (success, error)',
    labelNames: ['provider', 'result'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly idempotency = new Counter({
    name: 'herald_idempotency_requests_total',
    help: 'Requests with an idempotency key answered from the stored response (replayed) or refused as concurrent (conflict)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'herald_webhook_attempts_total',
    help: 'Outbound webhook attempts by outcome (delivered, retrying, failed: the schedule spent)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookEndpointsDisabled = new Counter({
    name: 'herald_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled by Herald because every attempt failed for too long',
    registers: [this.registry],
  });

  readonly receipts = new Counter({
    name: 'herald_receipts_total',
    help: 'Provider delivery receipts by provider and outcome (applied, duplicate, unmatched; rejected and unknown_integration per refused call)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(backlog: BacklogReader) {
    collectDefaultMetrics({ register: this.registry });
    // One read serves every queue gauge of a scrape.
    let snapshot: { at: number; value: ReturnType<BacklogReader['read']> } | undefined;
    const read = () => {
      if (!snapshot || Date.now() - snapshot.at > 500) snapshot = { at: Date.now(), value: backlog.read() };
      return snapshot.value;
    };
    const gauge = (name: string, help: string, pick: (b: Awaited<ReturnType<BacklogReader['read']>>) => number | null) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          // A database that does not answer leaves the gauges empty rather than failing the scrape.
          const backlog = await read().catch(() => null);
          const value = backlog && pick(backlog);
          if (value === null) this.reset();
          else this.set(value);
        },
      });
    gauge('herald_steps_due', 'Steps due now and not yet run (queued or delayed, run_at passed)', (b) => b.dueSteps);
    gauge('herald_delivery_lag_seconds', 'Age of the oldest due step that has not run yet: how far behind delivery is', (b) => b.lagSeconds);
    gauge('herald_steps_delayed', 'Steps waiting for a later time (delays, retries, digest windows)', (b) => b.delayedSteps);
    gauge('herald_fanouts_open', 'Trigger fan-outs to topics still expanding', (b) => b.openFanouts);
    gauge('herald_digests_open', 'Digest windows open', (b) => b.openDigests);
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
