import { DomainError } from '../errors';

/** How a product's backend computes `subscriberHash`, said wherever Herald asks for it (fits an error message's 200 characters). */
export const SUBSCRIBER_HASH_RECIPE =
  "hex HMAC-SHA256 of the subscriberId keyed with the environment's secret API key, made by your server: createHmac('sha256', secretKey).update(subscriberId).digest('hex')";

/** The refusal of a browser call from an origin the environment does not list. */
export function originRefused(origin: string): DomainError {
  return new DomainError('FORBIDDEN', `Origin ${origin} is not allowed for this environment (pnpm herald environments set <slug> --cors-origins ...)`);
}

/** The refusal of an Inbox session that the environment requires to be HMAC-verified. */
export function subscriberHashRefused(given: boolean, verifiable: boolean): DomainError {
  const messages = [
    'The environment requires Inbox sessions to prove the subscriber id: pass the hash to the Inbox as subscriberHash, and keep the secret key on your server',
  ];
  if (!verifiable) messages.push('No secret key of this environment can verify it yet: pnpm herald keys create --environment <slug>');
  return new DomainError('UNAUTHORIZED', `subscriberHash is ${given ? 'wrong' : 'required'}: ${SUBSCRIBER_HASH_RECIPE}`, { subscriberHash: { messages } });
}
