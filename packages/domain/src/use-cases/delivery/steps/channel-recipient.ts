import type { ChannelType } from '../../../entities/channel';
import type { JsonObject } from '../../../entities/delivery';
import type { Integration } from '../../../entities/integration';
import type { ChannelSettings, StepSubscriber } from '../../../entities/subscriber';
import type { ChatRoute } from '../../../ports/channel-connection-repository';
import type { OutboundMessage } from '../../../ports/delivery-provider';
import { isObject } from '../../../rules/control-reader';

export type OutboundChannel = Exclude<ChannelType, 'in_app'>;

/** The subscriber's channel settings for this integration; any of the channel's when none names it. */
function settingsFor(subscriber: StepSubscriber, integration: Integration): ChannelSettings[] {
  const own = subscriber.channels.filter(
    (c) => c._integrationId === integration.id || (c.integrationIdentifier ?? null) === integration.identifier || c.providerId === integration.providerId,
  );
  return own.length ? own : subscriber.channels;
}

/** A chat endpoint as a destination: a Slack channel or user for the Web API, or a webhook URL. */
function endpointDestination(routes: ChatRoute[]): { chatChannel?: string; webhookUrl?: string } | null {
  for (const r of routes) {
    if (r.type === 'slack_channel' && r.endpoint.channelId) return { chatChannel: r.endpoint.channelId };
    if (r.type === 'slack_user' && r.endpoint.userId) return { chatChannel: r.endpoint.userId };
    if (r.type === 'webhook' && r.endpoint.url) return { webhookUrl: r.endpoint.url };
  }
  return null;
}

/**
 * Where a channel's message goes for a subscriber through one integration, or why it cannot go.
 * Chat goes to the subscriber's channel endpoint on that integration first, then to the channel
 * credentials (`webhookUrl`, `channel`).
 */
export function recipientFor(channel: OutboundChannel, subscriber: StepSubscriber, integration: Integration, routes: ChatRoute[] = []): OutboundMessage['to'] | string {
  const base = { subscriberId: subscriber.subscriberId };
  const id = subscriber.subscriberId;
  switch (channel) {
    case 'email':
      return subscriber.email ? { ...base, email: subscriber.email } : `subscriber ${id} has no email address`;
    case 'sms':
      return subscriber.phone ? { ...base, phone: subscriber.phone } : `subscriber ${id} has no phone number`;
    case 'chat': {
      const endpoint = endpointDestination(routes);
      if (endpoint) return { ...base, ...endpoint };
      const settings = settingsFor(subscriber, integration);
      const webhookUrl = settings.find((c) => c.credentials?.webhookUrl)?.credentials.webhookUrl;
      const chatChannel = settings.find((c) => c.credentials?.channel)?.credentials.channel;
      if (webhookUrl || chatChannel) return { ...base, ...(webhookUrl ? { webhookUrl } : {}), ...(chatChannel ? { chatChannel } : {}) };
      return `subscriber ${id} has no chat endpoint, webhook URL or channel for ${integration.identifier}`;
    }
    case 'push': {
      const deviceTokens = [...new Set(settingsFor(subscriber, integration).flatMap((c) => c.credentials?.deviceTokens ?? []))];
      return deviceTokens.length ? { ...base, deviceTokens } : `subscriber ${id} has no push device tokens`;
    }
  }
}

const object = (value: unknown): JsonObject => (isObject(value) ? value : {});

/** Layers of overrides, later ones winning; custom `headers` are merged, not replaced. */
function layered(layers: JsonObject[]): JsonObject {
  const out: JsonObject = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      out[key] = key === 'headers' && isObject(out.headers) && isObject(value) ? { ...out.headers, ...value } : value;
    }
  }
  return out;
}

/**
 * The overrides one provider sees: the trigger's for the channel (`overrides.email`), then for the
 * provider (`overrides.<providerId>`, the older spelling, and `overrides.providers.<providerId>`),
 * then what a bridge's code returned for the provider (its `providers.<providerId>`, with
 * `_passthrough.body` last), later ones winning, as the original merges them.
 */
export function providerOverrides(overrides: JsonObject, channel: OutboundChannel, providerId: string, bridge: JsonObject = {}): JsonObject {
  const { _passthrough, ...fromCode } = object(bridge[providerId]);
  return layered([object(overrides[channel]), object(overrides[providerId]), object(object(overrides.providers)[providerId]), fromCode, object(object(_passthrough).body)]);
}
