import { randomUUID } from 'node:crypto';
import type { WebhookAttempt, WebhookAttemptResult, WebhookDelivery, WebhookEndpoint, WebhookEventDraft, WebhookSecrets } from '../entities/webhook';
import type { WebhookEndpointDraft, WebhookEndpointPatch, WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookAttemptQuery, WebhookOutbox, WebhookReplay } from '../ports/webhook-outbox';

interface StoredEvent extends WebhookEventDraft {
  id: string;
  createdAt: Date;
}

interface StoredDelivery {
  id: string;
  seq: number;
  event: StoredEvent;
  endpointId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
}

/** The state both webhook doubles share, as the SQL adapter's tables do. */
export class InMemoryWebhookStore {
  readonly endpoints = new Map<string, WebhookEndpoint & { secrets: WebhookSecrets }>();
  readonly deliveries: StoredDelivery[] = [];
  readonly attempts: WebhookAttempt[] = [];
  seq = 0;
  /** The database's clock, which SQL's now() reads. */
  now: () => Date = () => new Date();
}

const publicView = ({ secrets, ...endpoint }: WebhookEndpoint & { secrets: WebhookSecrets }): WebhookEndpoint => ({ ...endpoint });

export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly store = new InMemoryWebhookStore()) {}

  async insert(environmentId: string, draft: WebhookEndpointDraft): Promise<WebhookEndpoint> {
    const at = this.store.now();
    const { secret, ...fields } = draft;
    const endpoint = { id: randomUUID(), environmentId, ...fields, disabledReason: null, failingSince: null, previousSecretUntil: null, createdAt: at, updatedAt: at, secrets: { current: secret } };
    this.store.endpoints.set(endpoint.id, endpoint);
    return publicView(endpoint);
  }

  private own(environmentId: string, id: string) {
    const endpoint = this.store.endpoints.get(id);
    return endpoint && endpoint.environmentId === environmentId ? endpoint : undefined;
  }

  async find(environmentId: string, id: string): Promise<WebhookEndpoint | null> {
    const endpoint = this.own(environmentId, id);
    return endpoint ? publicView(endpoint) : null;
  }

  async list(environmentId: string): Promise<WebhookEndpoint[]> {
    return [...this.store.endpoints.values()].filter((e) => e.environmentId === environmentId).map(publicView);
  }

  async update(environmentId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpoint | null> {
    const endpoint = this.own(environmentId, id);
    if (!endpoint) return null;
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) Object.assign(endpoint, { [key]: value });
    if (patch.enabled) Object.assign(endpoint, { disabledReason: null, failingSince: null });
    endpoint.updatedAt = this.store.now();
    return publicView(endpoint);
  }

  async remove(environmentId: string, id: string): Promise<boolean> {
    if (!this.own(environmentId, id)) return false;
    this.store.endpoints.delete(id);
    for (let i = this.store.deliveries.length - 1; i >= 0; i--) if (this.store.deliveries[i].endpointId === id) this.store.deliveries.splice(i, 1);
    for (let i = this.store.attempts.length - 1; i >= 0; i--) if (this.store.attempts[i].endpointId === id) this.store.attempts.splice(i, 1);
    return true;
  }

  async rotateSecret(environmentId: string, id: string, secret: string, previousUntil: Date): Promise<WebhookEndpoint | null> {
    const endpoint = this.own(environmentId, id);
    if (!endpoint) return null;
    endpoint.secrets = { current: secret, previous: endpoint.secrets.current, previousUntil: previousUntil.toISOString() };
    endpoint.previousSecretUntil = previousUntil;
    endpoint.updatedAt = this.store.now();
    return publicView(endpoint);
  }
}

export class InMemoryWebhookOutbox implements WebhookOutbox {
  constructor(readonly store = new InMemoryWebhookStore()) {}

  async append(events: WebhookEventDraft[]): Promise<number> {
    let made = 0;
    for (const draft of events) {
      const event = { ...draft, id: randomUUID(), createdAt: this.store.now() };
      for (const endpoint of this.store.endpoints.values()) {
        if (endpoint.environmentId !== event.environmentId || !endpoint.enabled) continue;
        if (endpoint.eventTypes.length && !endpoint.eventTypes.includes(event.type)) continue;
        this.store.deliveries.push({ id: randomUUID(), seq: ++this.store.seq, event, endpointId: endpoint.id, status: 'pending', attempts: 0, nextAttemptAt: event.createdAt, lockedUntil: null });
        made++;
      }
    }
    return made;
  }

  /** The oldest pending delivery of each endpoint and ordering key. */
  private heads(): StoredDelivery[] {
    const heads = new Map<string, StoredDelivery>();
    for (const d of this.store.deliveries) {
      const key = `${d.endpointId}\u0000${d.event.orderingKey}`;
      if (d.status === 'pending' && (heads.get(key)?.seq ?? Infinity) > d.seq) heads.set(key, d);
    }
    return [...heads.values()].sort((a, b) => a.seq - b.seq);
  }

  async claim(limit: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const now = this.store.now();
    const due = this.heads().filter((d) => {
      const endpoint = this.store.endpoints.get(d.endpointId);
      return endpoint?.enabled && d.nextAttemptAt <= now && (!d.lockedUntil || d.lockedUntil <= now);
    });
    return due.slice(0, limit).map((d) => {
      d.lockedUntil = new Date(now.getTime() + leaseMs);
      const endpoint = this.store.endpoints.get(d.endpointId)!;
      const { current, previous, previousUntil } = endpoint.secrets;
      const secrets = previous && previousUntil && new Date(previousUntil) > now ? [current, previous] : [current];
      const body = JSON.stringify({ type: d.event.type, timestamp: d.event.createdAt.toISOString(), data: d.event.data });
      return { id: d.id, eventId: d.event.id, endpointId: d.endpointId, environmentId: d.event.environmentId, url: endpoint.url, secrets, type: d.event.type, body, attempts: d.attempts };
    });
  }

  async record(results: WebhookAttemptResult[], disableIfFailingSince: Date): Promise<{ disabled: string[] }> {
    const now = this.store.now();
    const disabled = new Set<string>();
    for (const r of results) {
      const d = this.store.deliveries.find((x) => x.id === r.deliveryId);
      if (!d) continue;
      const { nextAttemptAt, ...logged } = r;
      this.store.attempts.push({ ...logged, id: randomUUID(), eventId: d.event.id, eventType: d.event.type, createdAt: now });
      Object.assign(d, { attempts: r.attempt, lockedUntil: null, status: r.succeeded ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed', nextAttemptAt: nextAttemptAt ?? d.nextAttemptAt });
      const endpoint = this.store.endpoints.get(d.endpointId);
      if (!endpoint) continue;
      endpoint.failingSince = r.succeeded ? null : (endpoint.failingSince ?? now);
      if (endpoint.enabled && endpoint.failingSince && endpoint.failingSince <= disableIfFailingSince) {
        Object.assign(endpoint, { enabled: false, disabledReason: `every attempt failed since ${endpoint.failingSince.toISOString()}` });
        disabled.add(endpoint.id);
      }
    }
    return { disabled: [...disabled] };
  }

  async attempts(environmentId: string, endpointId: string, query: WebhookAttemptQuery): Promise<WebhookAttempt[]> {
    const endpoint = this.store.endpoints.get(endpointId);
    if (!endpoint || endpoint.environmentId !== environmentId) return [];
    const all = this.store.attempts.filter((a) => a.endpointId === endpointId).reverse();
    const from = query.before ? all.findIndex((a) => a.id === query.before) + 1 : 0;
    return query.before && from === 0 ? [] : all.slice(from, from + query.limit);
  }

  async replay(environmentId: string, endpointId: string, which: WebhookReplay): Promise<number> {
    const endpoint = this.store.endpoints.get(endpointId);
    if (!endpoint || endpoint.environmentId !== environmentId) return 0;
    const now = this.store.now();
    const chosen = this.store.deliveries.filter((d) => {
      if (d.endpointId !== endpointId || d.status === 'pending') return false;
      if ('attemptId' in which) return this.store.attempts.some((a) => a.id === which.attemptId && a.deliveryId === d.id);
      return d.event.createdAt >= which.since && d.event.createdAt < which.until;
    });
    for (const d of chosen) Object.assign(d, { status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, seq: ++this.store.seq });
    return chosen.length;
  }

  async nextDueAt(): Promise<Date | null> {
    const pending = this.heads().filter((d) => this.store.endpoints.get(d.endpointId)?.enabled);
    return pending.length ? new Date(Math.min(...pending.map((d) => Math.max(d.nextAttemptAt.getTime(), d.lockedUntil?.getTime() ?? 0)))) : null;
  }
}
