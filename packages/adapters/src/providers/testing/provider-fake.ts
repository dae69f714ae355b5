import type { Credentials, OutboundMessage } from '@herald/domain';

/** Where one send goes and with which account: the recipient, the integration's credentials, a connection token. */
export interface Target {
  to: Omit<OutboundMessage['to'], 'subscriberId'>;
  credentials: Credentials;
  auth?: { accessToken: string };
}

/** What a send carried on the wire, in the channel's terms, as the fake read it off the request. */
export interface WireMessage {
  to: string[];
  from?: string;
  senderName?: string;
  subject?: string;
  /** The rendered body (html for email, text for sms and chat, the notification body for push). */
  body?: string;
  text?: string;
  replyTo?: string;
  cc?: string[];
  bcc?: string[];
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; contentType: string; content: string }>;
  /** Anything else a channel's overrides reach (push title, data, sound; chat blocks, username). */
  extra?: Record<string, unknown>;
}

/** A failure the fake gives the next send: its protocol's server failure, rate limit (Retry-After 7 s) or no answer at all. */
export type InjectedFailure = 'server-error' | 'rate-limited' | 'hang';

/** A running loopback fake of one provider's service, speaking its wire protocol. */
export interface RunningProviderFake {
  /** The HERALD_PROVIDER_ENDPOINTS entry for the provider id; none when credentials say where to go (SMTP host, a webhook URL). */
  endpoint?: string;
  /** A send the service accepts. */
  target: Target;
  /** The same send with credentials the service refuses (a wrong key). */
  badCredentials: Target;
  /** The same send to a recipient the service refuses (a malformed address or number, an unknown channel). */
  invalidRecipient: Target;
  failNext(failure: InjectedFailure): void;
  /** The message id the service gave the last accepted send. */
  lastId(): string | undefined;
  /** What the last accepted send carried. */
  lastWire(): WireMessage | undefined;
  /** Accepted sends so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** One provider's fixture for the shared contract: how to start its fake and what its overrides look like on the wire. */
export interface ProviderFake {
  id: string;
  channel: OutboundMessage['channel'];
  start(): Promise<RunningProviderFake>;
  /** The trigger overrides the contract sends, and what of them must reach the wire. */
  overrides: { given: Record<string, unknown>; wire: Partial<WireMessage>; /** Overrides its API has no place for, with the reason. */ unmapped?: Record<string, string> };
  /** Cases the provider's protocol or SDK cannot show, with the reason (the contract skips them, by name). */
  unsupported?: Partial<Record<'messageId' | 'retryAfter' | 'invalidRecipient', string>>;
}
