import type { Integration } from '../entities/integration';
import type { ChannelSettings, ChannelSettingsInput, SubscriberInput } from '../entities/subscriber';
import { DomainError } from '../errors';

type Candidate = Pick<Integration, 'id' | 'identifier' | 'providerId' | 'primary' | 'active'>;

/**
 * Matches each channel setting of the subscriber objects in `to` to one of the environment's
 * integrations: by providerId and, when given, integrationIdentifier; otherwise the provider's
 * primary, then active, then oldest integration. Settings naming one integration twice are merged
 * here, so storage merges each integration's settings once. Throws VALIDATION_FAILED naming the
 * setting when no integration matches.
 */
export function resolveRecipientChannels(upserts: SubscriberInput[], integrations: Candidate[]): SubscriberInput[] {
  return upserts.map((subscriber) => {
    const given = subscriber.channels as ChannelSettingsInput[] | undefined;
    if (!given?.length) return subscriber;
    const merged = new Map<string, ChannelSettings>();
    given.forEach((setting, i) => {
      const integration = matchIntegration(integrations, setting);
      if (!integration) {
        const which = setting.integrationIdentifier ? ` with identifier '${setting.integrationIdentifier}'` : '';
        throw DomainError.field(`to.${subscriber.subscriberId}.channels.${i}.providerId`, `no ${setting.providerId} integration${which} in this environment`, setting.providerId);
      }
      const earlier = merged.get(integration.id);
      merged.set(integration.id, {
        providerId: integration.providerId,
        integrationIdentifier: integration.identifier,
        credentials: mergeCredentials(earlier?.credentials ?? {}, setting.credentials ?? {}),
        _integrationId: integration.id,
      });
    });
    return { ...subscriber, channels: [...merged.values()] };
  });
}

/** Later credentials win field by field; device tokens accumulate without duplicates. */
export function mergeCredentials(earlier: ChannelSettings['credentials'], later: ChannelSettings['credentials']): ChannelSettings['credentials'] {
  const merged = { ...earlier, ...later };
  if (earlier.deviceTokens || later.deviceTokens) merged.deviceTokens = [...new Set([...(earlier.deviceTokens ?? []), ...(later.deviceTokens ?? [])])];
  return merged;
}

/** The integration a channel setting names: its provider's (with that identifier when given) primary, then active, then oldest. */
export function matchIntegration<T extends Candidate>(integrations: T[], setting: Pick<ChannelSettingsInput, 'providerId' | 'integrationIdentifier'>): T | undefined {
  const matching = integrations.filter(
    (i) => i.providerId === setting.providerId && (setting.integrationIdentifier === undefined || i.identifier === setting.integrationIdentifier),
  );
  return matching.find((i) => i.primary) ?? matching.find((i) => i.active) ?? matching[0];
}
