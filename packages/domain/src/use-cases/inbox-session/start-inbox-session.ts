import type { InboxOwner } from '../../entities/inbox';
import { validateSubscriberAttributes, type SubscriberAttributes } from '../../entities/subscriber';
import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { InboxRepository } from '../../ports/inbox-repository';
import type { SubscriberRepository } from '../../ports/subscriber-repository';
import type { SubscriberTokens } from '../../ports/subscriber-tokens';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { originRefused, subscriberHashRefused } from '../../rules/inbox-security';
import { subscriberHashMatches } from '../../rules/subscriber-hash';
import { unreadCount, type UnreadCount } from './unread-count';

export interface StartInboxSessionInput {
  applicationIdentifier: string;
  subscriberId: string;
  /** Profile used only when the subscriber does not exist yet, and only by an HMAC-verified session. */
  subscriber?: SubscriberAttributes;
  /** HMAC-SHA256(secret key, subscriberId), hex; required when the environment turns inbox HMAC on. */
  subscriberHash?: string;
  /** The browser origin of a cross-origin call (undefined: same origin, or not a browser). */
  origin?: string;
}

export interface InboxSession {
  token: string;
  environment: Environment;
  owner: InboxOwner;
  unreadCount: UnreadCount;
  /** Whether the session proved the subscriber id with its HMAC. */
  verified: boolean;
}

/**
 * The browser Inbox's first call: resolves the environment by its public identifier, refuses a
 * browser origin it does not allow and, where the environment asks for it, a session without the
 * subscriber's HMAC, both before anything is written; then creates the subscriber if missing and
 * issues the subscriber token every other inbox call is authorised by. Only a verified session
 * chooses the new subscriber's profile: an unverified one creates the subscriber id alone, since
 * anyone holding the public identifier could send it.
 */
export class StartInboxSession {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly inbox: InboxRepository,
    private readonly tokens: SubscriberTokens,
  ) {}

  async execute(input: StartInboxSessionInput): Promise<InboxSession> {
    if (!input.subscriberId.trim()) throw DomainError.field('subscriber.subscriberId', 'is required', input.subscriberId);
    const environment = await this.tenancy.findEnvironmentByIdentifier(input.applicationIdentifier);
    if (!environment) {
      throw DomainError.field('applicationIdentifier', 'is not the application identifier of any environment', input.applicationIdentifier);
    }
    if (input.origin && !environment.corsOrigins.includes(input.origin)) throw originRefused(input.origin);
    const verified = await this.verify(environment, input);
    const owner = (await this.inbox.owner(environment.id, input.subscriberId)) ?? (await this.create(environment.id, input, verified));
    const token = this.tokens.issue({
      environmentId: environment.id,
      subscriberRef: owner.id,
      subscriberId: owner.subscriberId,
      securityVersion: environment.inboxSecurityVersion,
    });
    return { token, environment, owner, unreadCount: await unreadCount(this.inbox, owner), verified };
  }

  /** true when the hash proves the subscriber id; throws where the environment requires that and it does not. */
  private async verify(environment: Environment, input: StartInboxSessionInput): Promise<boolean> {
    if (!environment.inboxHmac && !input.subscriberHash) return false;
    const secrets = await this.tenancy.apiKeySecrets(environment.id);
    const verified = subscriberHashMatches(secrets, input.subscriberId, input.subscriberHash);
    if (!verified && environment.inboxHmac) throw subscriberHashRefused(Boolean(input.subscriberHash), secrets.length > 0);
    return verified;
  }

  private async create(environmentId: string, input: StartInboxSessionInput, verified: boolean): Promise<InboxOwner> {
    const profile = { ...(verified ? input.subscriber : {}), subscriberId: input.subscriberId };
    const errors = validateSubscriberAttributes(profile);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    await this.subscribers.insert(environmentId, profile);
    // Inserted here or by a concurrent session: either way it exists now.
    const owner = await this.inbox.owner(environmentId, input.subscriberId);
    if (!owner) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);
    return owner;
  }
}
