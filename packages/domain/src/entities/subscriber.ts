import type { FieldErrors } from '../errors';

export interface ChannelCredentials {
  webhookUrl?: string;
  channel?: string;
  deviceTokens?: string[];
  alertUid?: string;
  title?: string;
  imageUrl?: string;
  state?: string;
  externalUrl?: string;
}

export interface ChannelSettings {
  providerId: string;
  integrationIdentifier?: string;
  credentials: ChannelCredentials;
  _integrationId: string;
}

export interface Subscriber {
  id: string;
  environmentId: string;
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  locale: string | null;
  timezone: string | null;
  data: Record<string, unknown> | null;
  channels: ChannelSettings[];
  isOnline: boolean | null;
  lastOnlineAt: Date | null;
  version: number;
  deleted: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A subscriber as a workflow step sees it: what its templates, conditions and channels read (and its
 * id). A topic fan-out reads only these for each recipient: the rest of a subscribers row (its
 * environment, presence, version and times) was a third of the candidates' columns, parsed for
 * every recipient and read by no step.
 */
export type StepSubscriber = Pick<Subscriber, 'id' | 'subscriberId' | 'firstName' | 'lastName' | 'email' | 'phone' | 'avatar' | 'locale' | 'timezone' | 'data' | 'channels'>;

/** The writable attributes; `undefined` leaves a field as it is, `null` clears it. */
export interface SubscriberAttributes {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  locale?: string | null;
  timezone?: string | null;
  data?: Record<string, unknown> | null;
}

export interface SubscriberInput extends SubscriberAttributes {
  subscriberId: string;
  /** Channel settings to merge into the stored ones (a trigger recipient's `channels`), resolved to integrations. */
  channels?: ChannelSettings[];
}

/** Channel settings as a trigger recipient gives them, before they are matched to an integration. */
export interface ChannelSettingsInput {
  providerId: string;
  integrationIdentifier?: string;
  credentials: ChannelCredentials;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{1,14}$/;

function isTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const rules: Array<[keyof SubscriberAttributes, (v: string) => boolean, string]> = [
  ['email', (v) => EMAIL.test(v), 'must be a valid email address'],
  ['phone', (v) => E164.test(v), 'must be a phone number in E.164 format, e.g. +14155550123'],
  ['locale', isLocale, 'must be a BCP 47 locale, e.g. en-US'],
  ['timezone', isTimezone, 'must be an IANA time zone, e.g. Europe/Berlin'],
  ['avatar', isUrl, 'must be an http(s) URL'],
];

/** Semantic checks of subscriber attributes; an empty result means valid. */
export function validateSubscriberAttributes(input: SubscriberAttributes & { subscriberId?: string }): FieldErrors {
  const errors: FieldErrors = {};
  if (input.subscriberId !== undefined && input.subscriberId.trim() === '') {
    errors.subscriberId = { messages: ['must not be empty'], value: input.subscriberId };
  }
  for (const [field, valid, message] of rules) {
    const value = input[field];
    if (typeof value === 'string' && !valid(value)) errors[field] = { messages: [message], value };
  }
  return errors;
}
