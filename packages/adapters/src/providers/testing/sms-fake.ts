import type { Credentials } from '@herald/domain';
import type { ProviderFake } from './provider-fake';
import { INVALID, type HttpServiceTargets } from './http-service-fake';

/** The number every SMS fake accepts. */
export const SMS_TO = '+15550001111';

/** The `from` override every SMS fixture sends, and what must reach the wire. */
export const SMS_OVERRIDES: ProviderFake['overrides'] = { given: { from: '+15557776666' }, wire: { from: '+15557776666', body: 'Order A-1 is on its way' } };

/**
 * The targets of an SMS fake whose API origin is the operator's endpoint: the working credentials,
 * the same with `wrong` fields, and the number every fake refuses. `credentials(url)` receives the
 * fake's URL for APIs whose origin is a credential (Infobip's baseUrl, Azure's connection string).
 */
export function smsTargets(credentials: (url: string) => Credentials, wrong: Credentials | ((url: string) => Credentials), options: { endpoint?: boolean } = {}): HttpServiceTargets {
  const wrongFor = (url: string) => (typeof wrong === 'function' ? wrong(url) : wrong);
  return {
    ...(options.endpoint === false ? {} : { endpoint: (url: string) => url }),
    target: (url) => ({ to: { phone: SMS_TO }, credentials: credentials(url) }),
    badCredentials: (url) => ({ to: { phone: SMS_TO }, credentials: { ...credentials(url), ...wrongFor(url) } }),
    invalidRecipient: (url) => ({ to: { phone: INVALID.phone }, credentials: credentials(url) }),
  };
}
