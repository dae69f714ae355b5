/** The credential fields of one provider: those it cannot send without, and those it also reads. */
export interface CredentialFields {
  required: readonly string[];
  optional: readonly string[];
}

/**
 * Credential fields of each provider, keyed by the interface's provider id: THE entry to edit when a
 * provider starts sending. A field written `?name` is optional. Providers not listed (chat webhooks,
 * the service's own sinks) need none: their destination comes from the subscriber or a channel endpoint.
 * The list lives in the domain, not beside each adapter, because creating and updating an integration
 * validates against it for every provider id, also those this build cannot send through yet.
 */
const FIELDS: Record<string, readonly string[]> = {
  // email
  emailjs: ['host', 'port', 'user', 'password', 'from'],
  mailgun: ['apiKey', 'domain', 'from', '?senderName', '?baseUrl', '?user', '?signingSecret'],
  mailjet: ['apiKey', 'secretKey', 'from', '?senderName'],
  mandrill: ['apiKey', 'from', '?senderName'],
  nodemailer: ['host', 'port', 'from', '?user', '?password', '?secure', '?requireTls', '?ignoreTls', '?tlsOptions', '?senderName'],
  postmark: ['apiKey', 'from', '?senderName', '?user', '?password'],
  sendgrid: ['apiKey', 'from', '?senderName', '?signingSecret'],
  sendinblue: ['apiKey', 'from', '?senderName'],
  ses: ['apiKey', 'secretKey', 'region', 'from', '?senderName', '?topicArns'],
  netcore: ['apiKey', 'from'],
  'infobip-email': ['apiKey', 'baseUrl', 'from', '?senderName'],
  resend: ['apiKey', 'from', '?senderName'],
  plunk: ['apiKey', 'from', '?senderName'],
  mailersend: ['apiKey', 'from', '?senderName'],
  mailtrap: ['apiKey', 'from', '?senderName'],
  outlook365: ['from', 'password', '?user', '?senderName'],
  sparkpost: ['apiKey', 'from', '?senderName', '?region'],
  'email-webhook': ['webhookUrl', '?secretKey'],
  braze: ['apiKey', 'baseUrl', 'applicationId'],
  // sms
  clickatell: ['apiKey'],
  nexmo: ['apiKey', 'secretKey', 'from'],
  plivo: ['accountSid', 'token', 'from'],
  sms77: ['apiKey', 'from'],
  'sms-central': ['user', 'password', 'from'],
  sns: ['apiKey', 'secretKey', 'region', '?from'],
  telnyx: ['apiKey', 'from', '?messageProfileId'],
  twilio: ['accountSid', 'token', 'from'],
  gupshup: ['user', 'password'],
  firetext: ['apiKey', 'from'],
  'infobip-sms': ['apiKey', 'baseUrl', 'from'],
  'burst-sms': ['apiKey', 'secretKey'],
  'bulk-sms': ['apiToken'],
  'isend-sms': ['apiToken', 'from'],
  'forty-six-elks': ['user', 'password', 'from'],
  kannel: ['host', 'port', 'from'],
  maqsam: ['accessKey', 'secretKey', 'from'],
  termii: ['apiKey', 'from'],
  'africas-talking': ['user', 'apiKey', 'from'],
  sendchamp: ['apiKey', 'from'],
  'generic-sms': ['baseUrl', 'apiKeyRequestHeader', 'apiKey', 'from', '?secretKeyRequestHeader', '?secretKey', '?idPath'],
  clicksend: ['user', 'apiKey', 'from'],
  bandwidth: ['user', 'password', 'accountSid', 'from'],
  messagebird: ['accessKey', 'from'],
  simpletexting: ['apiKey', 'from'],
  'azure-sms': ['accessKey', 'from'],
  'ring-central': ['clientId', 'secretKey', 'token', 'from'],
  'brevo-sms': ['apiKey', 'from'],
  'eazy-sms': ['apiKey', 'channelId'],
  mobishastra: ['baseUrl', 'user', 'password', 'from'],
  'afro-message': ['apiKey', 'from'],
  unifonic: ['appSid', 'from'],
  smsmode: ['apiKey', 'from'],
  imedia: ['apiKey', 'from'],
  sinch: ['accountSid', 'token', 'from'],
  'isendpro-sms': ['apiKey', 'from'],
  'cm-telecom': ['apiKey', 'from'],
  // push
  fcm: ['serviceAccount'],
  apns: ['secretKey', 'apiKey', 'projectName', 'applicationId', '?secure'],
  expo: ['apiKey'],
  'one-signal': ['applicationId', 'apiKey'],
  pushpad: ['apiKey', 'applicationId'],
  'push-webhook': ['webhookUrl', '?secretKey'],
  'pusher-beams': ['instanceId', 'secretKey'],
  appio: ['apiKey'],
  // chat (destinations are per subscriber; these need an account token)
  slack: ['?apiToken'],
  'chat-webhook': ['?secretKey'],
  getstream: ['apiKey', 'secretKey', '?user'],
  'rocket-chat': ['token', 'user', '?baseUrl'],
  'whatsapp-business': ['apiToken', 'phoneNumberIdentification'],
  telegram: ['apiToken'],
  zulip: ['baseUrl', 'user', 'apiKey'],
  // agents
  anthropic: ['apiKey'],
  'anthropic-aws': ['accessKey', 'secretKey', 'region'],
};

const NONE: CredentialFields = { required: [], optional: [] };
const parsed = new Map<string, CredentialFields>(
  Object.entries(FIELDS).map(([id, fields]) => [
    id,
    { required: fields.filter((f) => !f.startsWith('?')), optional: fields.filter((f) => f.startsWith('?')).map((f) => f.slice(1)) },
  ]),
);

/** The credential fields of a provider id as the interface writes it (`svc-email`); none when it has no entry. */
export function credentialFields(genericId: string): CredentialFields {
  return parsed.get(genericId) ?? NONE;
}
