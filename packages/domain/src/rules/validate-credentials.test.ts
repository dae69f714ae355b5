import { describe, expect, it } from 'vitest';
import type { Credentials } from '../entities/integration';
import { providerCatalogue } from '../entities/provider-catalogue';
import { validateCredentials } from './validate-credentials';

const catalogue = providerCatalogue('herald');
const provider = (id: string) => {
  const found = catalogue.find(id);
  if (!found) throw new Error(`unknown provider ${id}`);
  return found;
};
const serviceAccount = JSON.stringify({ project_id: 'p', client_email: 'a@p.iam.gserviceaccount.com', private_key: 'k' });

const ses = { apiKey: 'AKIA1', secretKey: 's', region: 'eu-west-1', from: 'a@b.co' };

describe('validateCredentials', () => {
  const cases: Array<[string, Credentials, string[]]> = [
    ['nodemailer complete', { host: 'smtp.example.com', port: '587', from: 'no-reply@example.com' }, []],
    ['nodemailer without host', { port: '587', from: 'no-reply@example.com' }, ['credentials.host']],
    ['nodemailer with a bad port', { host: 'h', port: '70000', from: 'a@b.co' }, ['credentials.port']],
    ['nodemailer with a bad from', { host: 'h', port: '25', from: 'nobody' }, ['credentials.from']],
    ['nodemailer with a user but no password', { host: 'h', port: '25', from: 'a@b.co', user: 'u' }, ['credentials.password']],
    ['nodemailer with secure as a string', { host: 'h', port: '465', from: 'a@b.co', secure: 'false' as unknown as boolean }, ['credentials.secure']],
    ['twilio complete', { accountSid: 'AC1', token: 't', from: '+14155550100' }, []],
    ['twilio missing token and from', { accountSid: 'AC1' }, ['credentials.from', 'credentials.token']],
    ['sendgrid needs a key', { from: 'a@b.co', apiKey: '  ' }, ['credentials.apiKey']],
    ['mailgun needs a domain', { apiKey: 'k', from: 'a@b.co' }, ['credentials.domain']],
    ['fcm complete', { serviceAccount }, []],
    ['fcm with a non-JSON service account', { serviceAccount: 'nope' }, ['credentials.serviceAccount']],
    ['fcm with an incomplete service account', { serviceAccount: '{"project_id":"p"}' }, ['credentials.serviceAccount']],
    ['slack needs nothing', {}, []],
    ['chat-webhook with a bad URL', { webhookUrl: 'ftp://x' }, ['credentials.webhookUrl']],
    ['built-in email sink needs nothing', {}, []],
    ['anthropic needs a key', {}, ['credentials.apiKey']],
    ['ses with SNS topics', { ...ses, topicArns: 'arn:aws:sns:eu-west-1:123456789012:a, arn:aws:sns:eu-west-1:123456789012:b' }, []],
    ['ses with a queue for a topic', { ...ses, topicArns: 'arn:aws:sns:eu-west-1:123456789012:a,arn:aws:sqs:eu-west-1:123456789012:q' }, ['credentials.topicArns']],
    ['ses with topics as a list', { ...ses, topicArns: ['arn:aws:sns:eu-west-1:123456789012:a'] as unknown as string }, ['credentials.topicArns']],
  ];
  const providerOf: Record<string, string> = {
    nodemailer: 'nodemailer',
    twilio: 'twilio',
    sendgrid: 'sendgrid',
    mailgun: 'mailgun',
    fcm: 'fcm',
    slack: 'slack',
    'chat-webhook': 'chat-webhook',
    'built-in': 'herald-email',
    anthropic: 'anthropic',
    ses: 'ses',
  };
  it.each(cases)('%s', (name, credentials, fields) => {
    const id = Object.entries(providerOf).find(([prefix]) => name.startsWith(prefix))![1];
    expect(Object.keys(validateCredentials(provider(id), credentials)).sort()).toEqual(fields);
  });

  it('never echoes a credential value in the error', () => {
    const errors = validateCredentials(provider('nodemailer'), { host: 'h', port: 'secret-port', from: 'a@b.co' });
    expect(JSON.stringify(errors)).not.toContain('secret-port');
  });
});

describe('providerCatalogue', () => {
  const cases: Array<[string, string | null, string]> = [
    ['sendgrid', 'email', 'delivery'],
    ['clickatell', 'sms', 'delivery'],
    ['twilio', 'sms', 'delivery'],
    ['fcm', 'push', 'delivery'],
    ['slack', 'chat', 'delivery'],
    ['herald', 'in_app', 'delivery'],
    ['herald-email', 'email', 'delivery'],
    ['herald-sms', 'sms', 'delivery'],
    ['herald-slack', 'chat', 'delivery'],
    ['anthropic', null, 'agent'],
    ['herald-anthropic', null, 'agent'],
  ];
  it.each(cases)('%s -> %s', (id, channel, kind) => {
    expect(provider(id)).toMatchObject({ channel, kind });
  });

  it('substitutes the service name for svc and knows every provider once', () => {
    const acme = providerCatalogue('acme');
    expect(acme.find('acme-email')?.genericId).toBe('svc-email');
    expect(acme.find('herald-email')).toBeUndefined();
    expect(acme.find('svc-email')).toBeUndefined();
    expect(new Set(acme.ids).size).toBe(acme.ids.length);
    expect(acme.ids).toHaveLength(84);
    expect(acme.builtIns.map((b) => [b.providerId, b.channel])).toEqual([
      ['acme', 'in_app'],
      ['acme-email', 'email'],
      ['acme-sms', 'sms'],
    ]);
    expect(acme.outboxProvider('sms')).toBe('acme-sms');
    expect(acme.outboxProvider('push')).toBeUndefined();
  });
});
