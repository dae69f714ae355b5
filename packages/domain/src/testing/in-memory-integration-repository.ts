import { randomUUID } from 'node:crypto';
import type { ChannelType } from '../entities/channel';
import type { Integration, IntegrationChanges, NewIntegration } from '../entities/integration';
import type { BuiltInIntegration } from '../entities/provider-catalogue';
import { DomainError } from '../errors';
import { InMemoryStore } from './in-memory-store';
import type { IntegrationRepository } from '../ports/integration-repository';

/**
 * The IntegrationRepository double over the shared store (deleted rows stay, but are invisible);
 * `integration-repository-contract.ts` holds it to the SQL adapter's behaviour.
 */
export class InMemoryIntegrationRepository implements IntegrationRepository {
  constructor(readonly store = new InMemoryStore()) {}

  get rows(): Integration[] {
    return this.store.integrations;
  }

  private live(environmentId: string) {
    return this.rows.filter((r) => r.environmentId === environmentId && !r.deleted);
  }

  async activeChannels(environmentId: string) {
    return new Set(this.live(environmentId).filter((r) => r.active && r.channel).map((r) => r.channel as ChannelType));
  }

  async list(environmentId: string, options: { activeOnly?: boolean } = {}) {
    return this.live(environmentId)
      .filter((r) => !options.activeOnly || r.active)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.identifier < b.identifier ? -1 : 1))
      .map((r) => structuredClone(r));
  }

  async find(environmentId: string, idOrIdentifier: string) {
    const row = this.live(environmentId).find((r) => r.id === idOrIdentifier || r.identifier === idOrIdentifier);
    return row ? structuredClone(row) : null;
  }

  async create(environmentId: string, input: NewIntegration) {
    if (this.live(environmentId).some((r) => r.identifier === input.identifier)) return null;
    if (input.primary) this.demote(environmentId, input.channel);
    const now = this.store.now();
    const row: Integration = { ...structuredClone(input), id: randomUUID(), environmentId, priority: 0, deleted: false, deletedAt: null, deletedBy: null, createdAt: now, updatedAt: now };
    this.rows.push(row);
    return structuredClone(row);
  }

  async update(environmentId: string, id: string, changes: IntegrationChanges) {
    const row = this.live(environmentId).find((r) => r.id === id);
    if (!row) return null;
    if (changes.identifier && this.live(environmentId).some((r) => r.id !== id && r.identifier === changes.identifier)) {
      throw new DomainError('INTEGRATION_ALREADY_EXISTS', `An integration with identifier '${changes.identifier}' already exists`);
    }
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (row as unknown as Record<string, unknown>)[key] = structuredClone(value);
    if (changes.active === false) row.primary = false;
    row.updatedAt = this.store.now();
    return structuredClone(row);
  }

  async setPrimary(environmentId: string, id: string) {
    const row = this.live(environmentId).find((r) => r.id === id);
    if (!row) return null;
    this.demote(environmentId, row.channel);
    Object.assign(row, { primary: true, active: true, updatedAt: this.store.now() });
    return structuredClone(row);
  }

  async softDelete(environmentId: string, id: string, deletedBy?: string) {
    const row = this.live(environmentId).find((r) => r.id === id);
    if (!row) return false;
    const now = this.store.now();
    Object.assign(row, { deleted: true, deletedAt: now, deletedBy: deletedBy ?? null, primary: false, active: false, updatedAt: now });
    return true;
  }

  async findDeliveryCandidates(environmentId: string, channel: ChannelType) {
    return this.live(environmentId)
      .filter((r) => r.active && r.channel === channel)
      .sort((a, b) => Number(b.primary) - Number(a.primary) || b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((r) => structuredClone(r));
  }

  async ensureBuiltIns(environmentIds: string[], builtIns: readonly BuiltInIntegration[]) {
    let created = 0;
    for (const environmentId of environmentIds) {
      for (const b of builtIns) {
        if (this.rows.some((r) => r.environmentId === environmentId && r.providerId === b.providerId)) continue;
        const primary = !this.live(environmentId).some((r) => r.channel === b.channel && r.primary);
        const input = { ...b, kind: 'delivery' as const, credentials: {}, configurations: {}, active: true, primary, conditions: [] };
        if (await this.create(environmentId, input)) created++;
      }
    }
    return created;
  }

  async retireBuiltIns(environmentIds: string[], providerIds: string[]) {
    let retired = 0;
    for (const environmentId of environmentIds) {
      for (const row of this.live(environmentId).filter((r) => providerIds.includes(r.providerId))) {
        if (await this.softDelete(environmentId, row.id, 'system')) retired++;
      }
    }
    return retired;
  }

  private demote(environmentId: string, channel: ChannelType | null) {
    for (const r of this.live(environmentId)) if (r.channel === channel) r.primary = false;
  }
}
