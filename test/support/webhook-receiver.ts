import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A request the receiver accepted after verifying its signature. */
export interface ReceivedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, any>;
}

export interface WebhookReceiver {
  url: string;
  /** Set once the endpoint is created (its secret is shown once). */
  secret: string;
  /** Verified events accepted with a 2xx, in arrival order. */
  accepted: ReceivedEvent[];
  /** Every request, with whether its signature verified. */
  requests: Array<{ id: string | undefined; verified: boolean; status: number }>;
  /** While true, every request is answered 500 (a receiver that is down). */
  down: boolean;
  close(): Promise<void>;
}

/**
 * A team's webhook receiver on loopback: verifies each request with the Standard Webhooks library
 * and the endpoint's secret (a request that does not verify is answered 400 and not accepted).
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { url: '', secret: '', accepted: [], requests: [], down: false, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let event: Omit<ReceivedEvent, 'id'> | undefined;
      try {
        event = new Webhook(receiver.secret).verify(body, headers) as Omit<ReceivedEvent, 'id'>;
      } catch {
        event = undefined;
      }
      const status = !event ? 400 : receiver.down ? 500 : 204;
      receiver.requests.push({ id: headers['webhook-id'], verified: !!event, status });
      if (event && status === 204) receiver.accepted.push({ id: headers['webhook-id'], ...event });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 500 ? 'receiver down for maintenance' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
