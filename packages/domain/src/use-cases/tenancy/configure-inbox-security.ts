import type { Environment, EnvironmentSettings } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { environmentBySlugOrId } from './environment-lookup';

export interface InboxSecurityView {
  environment: Environment;
  /** What the setting leaves open, in words an operator acts on; null when the Inbox requires the HMAC. */
  exposure: string | null;
}

/**
 * The operator's Inbox settings of an environment: whether sessions must carry the subscriber HMAC,
 * and the browser origins allowed to call the inbox API. A change raises the environment's
 * `inboxSecurityVersion` (the repository does, in the same write), which ends every subscriber
 * token issued under the old settings.
 */
export class ConfigureInboxSecurity {
  constructor(private readonly tenancy: TenancyRepository) {}

  async execute(environmentSlugOrId: string, settings: Pick<EnvironmentSettings, 'inboxHmac' | 'corsOrigins'>): Promise<InboxSecurityView> {
    const environment = await environmentBySlugOrId(this.tenancy, environmentSlugOrId);
    const bad = (settings.corsOrigins ?? []).filter((o) => !isOrigin(o));
    if (bad.length) throw DomainError.field('corsOrigins', 'each must be an origin such as https://app.example.com (scheme, host, optional port)', bad);
    const updated = await this.tenancy.updateEnvironment(environment.id, { inboxHmac: settings.inboxHmac, corsOrigins: settings.corsOrigins });
    if (!updated) throw new DomainError('ENVIRONMENT_NOT_FOUND', `Environment '${environmentSlugOrId}' was not found`);
    return { environment: updated, exposure: inboxExposure(updated) };
  }
}

/** What an environment's Inbox lets anyone do who holds its public application identifier. */
export function inboxExposure(environment: Environment): string | null {
  if (environment.inboxHmac) return null;
  return (
    `Inbox sessions of ${environment.slug} need no subscriberHash: anyone who has its application identifier ` +
    `(${environment.publicIdentifier}, which ships in every frontend that shows the Inbox) can open any subscriber's Inbox by ` +
    'naming its subscriberId: read their notifications, mark, archive and delete them, and change their preferences. ' +
    'Sessions still never write a subscriber profile without the HMAC.'
  );
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}
