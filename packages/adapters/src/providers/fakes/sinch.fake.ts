import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const PLAN = 'sinchcontractplan01';
const TOKEN = 'sinch-contract-token-1';
const error = (status: number, code: string, text: string) => ({ status, body: { code, text } });

/** Sinch POST /xms/v1/{service_plan_id}/batches: bearer token, `{ from, to: [...], body }`; 201 with the batch `id`; errors `{ code, text }`. */
export const fake: ProviderFake = {
  id: 'sinch',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  start: () =>
    startHttpService(
      {
        path: /^\/xms\/v1\/[^/]+\/batches$/,
        prefix: '/xms/v1/',
        authorized: (r) => r.headers.authorization === `Bearer ${TOKEN}` && r.path === `/xms/v1/${PLAN}/batches`,
        accept: (r, id) => ({
          status: 201,
          body: { id, to: r.json.to, from: r.json.from, canceled: false, body: r.json.body, type: 'mt_text', client_reference: r.json.client_reference, created_at: new Date().toISOString(), delivery_report: 'none', flash_message: false },
        }),
        unauthorized: () => error(401, 'unauthorized', 'Invalid credentials for service plan'),
        invalidRecipient: () => error(400, 'syntax_invalid_parameter_format', 'The recipient +0000000000 is not a valid MSISDN'),
        serverError: error(500, 'internal_error', 'Internal error'),
        rateLimited: { ...error(429, 'too_many_requests', 'Too many requests'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: r.json.to, from: r.json.from, body: r.json.body }),
      },
      smsTargets(() => ({ accountSid: PLAN, token: TOKEN, from: '+15559998888' }), { token: 'sinch-wrong-token-9' }),
    ),
};
