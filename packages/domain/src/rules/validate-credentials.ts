import type { Credentials } from '../entities/integration';
import type { ProviderInfo } from '../entities/provider-catalogue';
import type { FieldErrors } from '../errors';
import { credentialFields } from '../entities/provider-credentials';
import { snsTopicArns } from './sns-topic-arns';

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const URL_FIELDS = ['baseUrl', 'webhookUrl', 'redirectUrl'] as const;

export function requiredCredentials(provider: ProviderInfo): readonly string[] {
  return provider.builtIn ? [] : credentialFields(provider.genericId).required;
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
  // SES receipts are taken only from the SNS topics named here (docs/receipts.md).
  if (credentials.topicArns !== undefined && credentials.topicArns !== '') {
    const topics = snsTopicArns(credentials.topicArns);
    if (typeof credentials.topicArns !== 'string' || topics.invalid.length || !topics.arns.length) {
      fail('topicArns', 'must be SNS topic ARNs (arn:aws:sns:<region>:<account>:<topic>), separated by commas');
    }
  }
  if (typeof serviceAccount === 'string' && serviceAccount !== '') {
    const problem = serviceAccountProblem(serviceAccount);
    if (problem) fail('serviceAccount', problem);
  }
  return errors;
}
