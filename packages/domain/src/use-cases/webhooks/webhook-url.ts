import { isIP } from 'node:net';
import { DomainError } from '../../errors';
import { isPrivateAddress } from '../../rules/private-address';

/** What the service allows as an endpoint address. */
export interface WebhookUrlPolicy {
  /** Plain http and private, loopback and link-local addresses (HERALD_ALLOW_PRIVATE_NETWORKS): development only. */
  allowPrivateNetworks: boolean;
}

/**
 * Refuses, naming the field, what can never be delivered or must not be: not a URL, not https
 * (http only where private networks are allowed), a literal private address. A hostname that
 * resolves to a private address is refused by the outbound guard at each attempt instead.
 */
export function validateWebhookUrl(value: string, policy: WebhookUrlPolicy, field = 'url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw DomainError.field(field, 'must be an absolute URL', value);
  }
  const secureOnly = !policy.allowPrivateNetworks;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !secureOnly)) {
    throw DomainError.field(field, secureOnly ? 'must be an https URL' : 'must be an http or https URL', value);
  }
  if (url.username || url.password) throw DomainError.field(field, 'must not carry credentials; the signature authenticates Herald', value);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (secureOnly && (host === 'localhost' || (isIP(host) && isPrivateAddress(host)))) {
    throw DomainError.field(field, 'must not be a private, loopback or link-local address', value);
  }
  return url.toString();
}
