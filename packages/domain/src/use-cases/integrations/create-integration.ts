import { randomBytes } from 'node:crypto';
import type { ChannelType } from '../../entities/channel';
import type { Credentials, Integration, IntegrationConfigurations } from '../../entities/integration';
import { defaultIntegrationIdentifier } from '../../entities/integration';
import type { IntegrationKind, ProviderCatalogue, ProviderInfo } from '../../entities/provider-catalogue';
import type { StepFilter } from '../../entities/step-filter';
import { DomainError } from '../../errors';
import type { IntegrationRepository } from '../../ports/integration-repository';
import { checkIntegrationInput } from './check-integration-input';

export interface CreateIntegrationInput {
  environmentId: string;
  providerId: string;
  name?: string;
  identifier?: string;
  /** Optional; when given it must be the provider's channel. */
  channel?: ChannelType;
  kind?: IntegrationKind;
  credentials?: Credentials;
  configurations?: IntegrationConfigurations;
  active?: boolean;
  conditions?: StepFilter[];
}

/**
 * Adds a provider integration. An active one becomes its channel's primary when the channel has
 * none, or when the primary is one of the service's development sinks: a real provider takes over.
 */
export class CreateIntegration {
  constructor(
    private readonly catalogue: ProviderCatalogue,
    private readonly integrations: IntegrationRepository,
  ) {}

  async execute(input: CreateIntegrationInput): Promise<Integration> {
    const provider = this.provider(input);
    const credentials = input.credentials ?? {};
    const conditions = input.conditions ?? [];
    checkIntegrationInput(provider, { credentials, conditions, name: input.name, identifier: input.identifier, configurations: input.configurations });

    const name = input.name?.trim() || provider.id;
    const identifier = input.identifier?.trim() || defaultIntegrationIdentifier(provider.id, name, randomBytes(3).toString('hex'));
    const active = input.active ?? true;
    const primary = active && provider.channel !== null && (await this.shouldTakePrimary(input.environmentId, provider.channel));
    const created = await this.integrations.create(input.environmentId, {
      name,
      identifier,
      providerId: provider.id,
      channel: provider.channel,
      kind: provider.kind,
      credentials,
      configurations: input.configurations ?? {},
      active,
      primary,
      conditions,
    });
    if (!created) {
      throw new DomainError('INTEGRATION_ALREADY_EXISTS', `An integration with identifier '${identifier}' already exists`);
    }
    return created;
  }

  private provider(input: CreateIntegrationInput): ProviderInfo {
    const provider = this.catalogue.find(input.providerId);
    if (!provider) throw DomainError.field('providerId', 'is not a known provider id', input.providerId);
    if (input.channel !== undefined && input.channel !== provider.channel) {
      throw DomainError.field('channel', `${provider.id} delivers on ${provider.channel ?? 'no channel (agent)'}`, input.channel);
    }
    if (input.kind !== undefined && input.kind !== provider.kind) {
      throw DomainError.field('kind', `${provider.id} is a ${provider.kind} integration`, input.kind);
    }
    return provider;
  }

  private async shouldTakePrimary(environmentId: string, channel: ChannelType): Promise<boolean> {
    const current = (await this.integrations.findDeliveryCandidates(environmentId, channel)).find((i) => i.primary);
    return !current || Boolean(this.catalogue.find(current.providerId)?.builtIn);
  }
}
