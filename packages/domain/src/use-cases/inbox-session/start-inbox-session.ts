import type { InboxOwner } from '../../entities/inbox';
import { validateSubscriberAttributes, type SubscriberAttributes } from '../../entities/subscriber';
import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { InboxRepository } from '../../ports/inbox-repository';
import type { SubscriberRepository } from '../../ports/subscriber-repository';
import type { SubscriberTokens } from '../../ports/subscriber-tokens';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { subscriberHashMatches } from '../../rules/subscriber-hash';
import { unreadCount, type UnreadCount } from './unread-count';

export interface StartInboxSessionInput {
  applicationIdentifier: string;
  subscriberId: string;
  /** Profile used only when the subscriber does not exist yet (a session never edits a profile). */
  subscriber?: SubscriberAttributes;
  /** HMAC-SHA256(secret key, subscriberId), hex; required when the environment turns inbox HMAC on. */
  subscriberHash?: string;
}

export interface InboxSession {
  token: string;
  environment: Environment;
  owner: InboxOwner;
  unreadCount: UnreadCount;
}

/**
 * The browser Inbox's first call: resolves the environment by its public identifier, checks the
 * subscriber HMAC when the environment asks for it, creates the subscriber if missing, and issues
 * the subscriber token every other inbox call is authorised by.
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
    if (environment.inboxHmac) {
      const secrets = await this.tenancy.apiKeySecrets(environment.id);
      if (!subscriberHashMatches(secrets, input.subscriberId, input.subscriberHash)) {
        throw new DomainError('UNAUTHORIZED', 'subscriberHash is missing or is not the HMAC-SHA256 of the subscriber id with a secret key of this environment');
      }
    }
    const owner = (await this.inbox.owner(environment.id, input.subscriberId)) ?? (await this.create(environment.id, input));
    const token = this.tokens.issue({ environmentId: environment.id, subscriberRef: owner.id, subscriberId: owner.subscriberId });
    return { token, environment, owner, unreadCount: await unreadCount(this.inbox, owner) };
  }

  private async create(environmentId: string, input: StartInboxSessionInput): Promise<InboxOwner> {
    const profile = { ...input.subscriber, subscriberId: input.subscriberId };
    const errors = validateSubscriberAttributes(profile);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    await this.subscribers.insert(environmentId, profile);
    // Inserted here or by a concurrent session: either way it exists now.
    const owner = await this.inbox.owner(environmentId, input.subscriberId);
    if (!owner) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);
    return owner;
  }
}
