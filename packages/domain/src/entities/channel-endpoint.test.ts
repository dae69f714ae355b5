import { describe, expect, it } from 'vitest';
import { endpointFitsProvider, validateEndpoint, type EndpointType } from './channel-endpoint';
import { providerCatalogue } from './provider-catalogue';

describe('validateEndpoint', () => {
  const cases: Array<[EndpointType, unknown, string[]]> = [
    ['phone', { phoneNumber: '+14155550123' }, []],
    ['phone', { phoneNumber: '4155550123' }, ['endpoint.phoneNumber']],
    ['phone', {}, ['endpoint.phoneNumber']],
    ['webhook', { url: 'https://hooks.example.com/x', channel: 'alerts' }, []],
    ['webhook', { url: '/relative' }, ['endpoint.url']],
    ['slack_channel', { channelId: 'C123' }, []],
    ['slack_channel', { channelId: ' ' }, ['endpoint.channelId']],
    ['slack_user', { userId: 'U1', extra: 'x' }, ['endpoint.extra']],
    ['ms_teams_channel', { teamId: 'T', channelId: 'C' }, []],
    ['ms_teams_channel', { teamId: 'T' }, ['endpoint.channelId']],
    ['ms_teams_user', { userId: 'U' }, []],
    ['telegram_chat', { chatId: 42 }, ['endpoint.chatId']],
    ['telegram_chat', null, ['endpoint']],
  ];
  it.each(cases)('%s %j', (type, endpoint, fields) => {
    expect(Object.keys(validateEndpoint(type, endpoint))).toEqual(fields);
  });
});

describe('endpointFitsProvider', () => {
  const catalogue = providerCatalogue('herald');
  const cases: Array<[EndpointType, string, boolean]> = [
    ['phone', 'twilio', true],
    ['phone', 'herald-sms', true],
    ['phone', 'sendgrid', false],
    ['slack_channel', 'slack', true],
    ['slack_user', 'herald-slack', true],
    ['slack_channel', 'discord', false],
    ['ms_teams_user', 'msteams', true],
    ['telegram_chat', 'telegram', true],
    ['webhook', 'chat-webhook', true],
    ['webhook', 'push-webhook', true],
    ['webhook', 'sendgrid', false],
  ];
  it.each(cases)('%s on %s -> %s', (type, providerId, fits) => {
    expect(endpointFitsProvider(type, catalogue.find(providerId)!)).toBe(fits);
  });
});
