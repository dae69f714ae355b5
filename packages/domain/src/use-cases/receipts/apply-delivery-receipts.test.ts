import { describe, expect, it } from 'vitest';
import type { Credentials } from '../../entities/integration';
import type { InboundReceiptRequest, ReceiptReading } from '../../entities/delivery-receipt';
import type { ReceiptReader } from '../../ports/receipt-readers';
import { InMemoryReceiptRepository } from '../../testing/in-memory-receipt-repository';
import { ApplyDeliveryReceipts } from './apply-delivery-receipts';

/** A reader whose "signature" is the integration's token in a header; the body is a JSON list of receipts. */
const tokenReader: ReceiptReader = {
  async read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading> {
    if (request.headers['x-token'] !== credentials.token) return { verified: false, reason: 'bad token' };
    return { verified: true, receipts: JSON.parse(request.body) };
  },
};

function setup() {
  const repo = new InMemoryReceiptRepository();
  repo.integrations.set('int-a', { id: 'int-a', environmentId: 'env-1', providerId: 'fake', credentials: { token: 'secret' } });
  repo.integrations.set('int-b', { id: 'int-b', environmentId: 'env-2', providerId: 'fake', credentials: { token: 'other' } });
  repo.integrations.set('int-c', { id: 'int-c', environmentId: 'env-1', providerId: 'no-receipts', credentials: {} });
  repo.messages.push({ id: 'm1', integrationId: 'int-a', providerMessageId: 'p-1', status: 'sent' });
  repo.messages.push({ id: 'm2', integrationId: 'int-b', providerMessageId: 'p-2', status: 'sent' });
  const seen: string[] = [];
  const useCase = new ApplyDeliveryReceipts(repo, { forProvider: (id) => (id === 'fake' ? tokenReader : null) }, { received: (p, o) => seen.push(`${p}:${o}`) });
  const call = (integrationId: string, receipts: unknown[], token = 'secret') =>
    useCase.execute({ integrationId, request: { url: 'https://h/x', headers: { 'x-token': token }, body: JSON.stringify(receipts) } });
  return { repo, seen, call };
}

const delivered = { receiptId: 'r1', providerMessageId: 'p-1', event: 'delivered', detail: 'delivered', raw: '{}' };

describe('ApplyDeliveryReceipts', () => {
  it('a verified receipt sets the status, adds a Webhook detail and one outbound event', async () => {
    const { repo, seen, call } = setup();
    expect(await call('int-a', [delivered])).toEqual({ outcome: 'accepted', counts: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(repo.messages[0].status).toBe('delivered');
    expect(repo.details).toEqual([{ messageId: 'm1', status: 'Success', source: 'Webhook', detail: 'delivered', raw: '{}' }]);
    expect(repo.events).toEqual([{ type: 'message.delivered', messageId: 'm1' }]);
    expect(seen).toEqual(['fake:applied']);
  });

  it('the same receipt twice applies once', async () => {
    const { repo, call } = setup();
    await call('int-a', [delivered]);
    expect(await call('int-a', [delivered])).toMatchObject({ counts: { applied: 0, duplicate: 1 } });
    expect(repo.details).toHaveLength(1);
    expect(repo.events).toHaveLength(1);
  });

  it('a bad signature is rejected and changes nothing', async () => {
    const { repo, seen, call } = setup();
    expect(await call('int-a', [delivered], 'forged')).toEqual({ outcome: 'rejected', reason: 'bad token' });
    expect(repo.messages[0].status).toBe('sent');
    expect(repo.details).toEqual([]);
    expect(seen).toEqual(['fake:rejected']);
  });

  it('an unknown integration, or one whose provider sends no receipts, is unknown', async () => {
    const { seen, call } = setup();
    expect(await call('nope', [delivered])).toEqual({ outcome: 'unknown_integration' });
    expect(await call('int-c', [delivered])).toEqual({ outcome: 'unknown_integration' });
    expect(seen).toEqual(['unknown:unknown_integration', 'no-receipts:unknown_integration']);
  });

  it("a receipt only touches messages its integration sent: another integration's message is unmatched", async () => {
    const { repo, call } = setup();
    expect(await call('int-a', [{ ...delivered, providerMessageId: 'p-2' }])).toMatchObject({ counts: { applied: 0, unmatched: 1 } });
    expect(repo.messages[1].status).toBe('sent');
  });

  it('a bounce after delivery bounces; a late delivered never undoes a bounce; opens keep the status', async () => {
    const { repo, call } = setup();
    await call('int-a', [delivered, { ...delivered, receiptId: 'r2', event: 'bounced', detail: 'bounce' }]);
    await call('int-a', [{ ...delivered, receiptId: 'r3' }, { ...delivered, receiptId: 'r4', event: 'opened', detail: 'open' }]);
    expect(repo.messages[0].status).toBe('bounced');
    expect(repo.details.map((d) => d.status)).toEqual(['Success', 'Failed', 'Success', 'Success']);
    expect(repo.events.map((e) => e.type)).toEqual(['message.delivered', 'message.bounced']);
  });

  it('a failure fails the message once: one message.failed, nothing after it', async () => {
    const { repo, call } = setup();
    await call('int-a', [{ ...delivered, receiptId: 'r1', event: 'failed', detail: 'dropped' }, { ...delivered, receiptId: 'r2', event: 'failed', detail: 'dropped again' }]);
    await call('int-a', [{ ...delivered, receiptId: 'r3' }]);
    expect(repo.messages[0].status).toBe('failed');
    expect(repo.events).toEqual([{ type: 'message.failed', messageId: 'm1' }]);
  });
});
