import type { Credentials } from '../entities/integration';
import type { ProviderInfo } from '../entities/provider-catalogue';
import type { FieldErrors } from '../errors';

/**
 * Credential fields each provider cannot send without, keyed by the interface's provider id.
 * Providers not listed (chat webhooks, the service's own sinks) need none: their destination comes
 * from the subscriber or a channel endpoint.
 */
const REQUIRED: Record<string, readonly string[]> = {
  // email
  emailjs: ['host', 'port', 'user', 'password', 'from'],
  mailgun: ['apiKey', 'domain', 'from'],
  mailjet: ['apiKey', 'secretKey', 'from'],
  mandrill: ['apiKey', 'from'],
  nodemailer: ['host', 'port', 'from'],
  postmark: ['apiKey', 'from'],
  sendgrid: ['apiKey', 'from'],
  sendinblue: ['apiKey', 'from'],
  ses: ['apiKey', 'secretKey', 'region', 'from'],
  netcore: ['apiKey', 'from'],
  'infobip-email': ['apiKey', 'baseUrl', 'from'],
  resend: ['apiKey', 'from'],
  plunk: ['apiKey', 'from'],
  mailersend: ['apiKey', 'from'],
  mailtrap: ['apiKey', 'from'],
  outlook365: ['from', 'password'],
  sparkpost: ['apiKey', 'from'],
  'email-webhook': ['webhookUrl'],
  braze: ['apiKey', 'baseUrl', 'applicationId'],
  // sms
  clickatell: ['apiKey'],
  nexmo: ['apiKey', 'secretKey', 'from'],
  plivo: ['accountSid', 'token', 'from'],
  sms77: ['apiKey', 'from'],
  'sms-central': ['user', 'password', 'from'],
  sns: ['apiKey', 'secretKey', 'region'],
  telnyx: ['apiKey', 'from'],
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
  'generic-sms': ['baseUrl', 'apiKeyRequestHeader', 'apiKey', 'from'],
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
  apns: ['secretKey', 'apiKey', 'applicationId'],
  expo: ['apiKey'],
  'one-signal': ['applicationId', 'apiKey'],
  pushpad: ['apiKey', 'applicationId'],
  'push-webhook': ['webhookUrl'],
  'pusher-beams': ['instanceId', 'secretKey'],
  appio: ['apiKey'],
  // chat (destinations are per subscriber; these need an account token)
  getstream: ['apiKey'],
  'rocket-chat': ['token', 'user'],
  'whatsapp-business': ['apiToken', 'phoneNumberIdentification'],
  telegram: ['apiToken'],
  // agents
  anthropic: ['apiKey'],
  'anthropic-aws': ['accessKey', 'secretKey', 'region'],
};

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const URL_FIELDS = ['baseUrl', 'webhookUrl', 'redirectUrl'] as const;

export function requiredCredentials(provider: ProviderInfo): readonly string[] {
  return provider.builtIn ? [] : (REQUIRED[provider.genericId] ?? []);
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function serviceAccountProblem(value: string): string | null {
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>;
    const missing = ['project_id', 'client_email', 'private_key'].filter((k) => typeof parsed?.[k] !== 'string');
    return missing.length ? `service account JSON lacks ${missing.join(', ')}` : null;
  } catch {
    return 'must be the service account key file as a JSON string';
  }
}

/** Semantic checks of an integration's credentials for its provider; fields are named `credentials.<field>`. */
export function validateCredentials(provider: ProviderInfo, credentials: Credentials): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[`credentials.${field}`] = { messages: [message], value: undefined };
  };
  for (const field of requiredCredentials(provider)) {
    const value = credentials[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      fail(field, `is required by ${provider.id}`);
    }
  }
  // Secret values are never echoed back in error bodies, so `value` stays unset.
  const { port, from, serviceAccount } = credentials;
  if (typeof port === 'string' && port !== '' && !(/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    fail('port', 'must be a port number between 1 and 65535');
  }
  for (const field of URL_FIELDS) {
    const value = credentials[field];
    if (typeof value === 'string' && value !== '' && !isHttpUrl(value)) fail(field, 'must be an absolute http(s) URL');
  }
  if (provider.channel === 'email' && typeof from === 'string' && from !== '' && !EMAIL.test(from)) {
    fail('from', 'must be an email address');
  }
  // An SMTP login needs both halves; a TLS switch must be a real boolean, not the string "false".
  if (provider.genericId === 'nodemailer' && credentials.user && !credentials.password) fail('password', 'is required with user (SMTP login)');
  for (const field of ['secure', 'requireTls', 'ignoreTls'] as const) {
    if (credentials[field] !== undefined && typeof credentials[field] !== 'boolean') fail(field, 'must be true or false');
  }
  if (typeof serviceAccount === 'string' && serviceAccount !== '') {
    const problem = serviceAccountProblem(serviceAccount);
    if (problem) fail('serviceAccount', problem);
  }
  return errors;
}
