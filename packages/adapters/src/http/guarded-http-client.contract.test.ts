import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpClientContract } from '@herald/domain/testing/http-client-contract';
import type { Handler } from '@herald/domain/testing/in-memory-http-client';
import { afterEach } from 'vitest';
import { GuardedHttpClient } from './guarded-http-client';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real HTTP server on loopback answering with `handler`. */
async function serve(handler: Handler): Promise<string> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const answer = await handler({ method: req.method ?? '', path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

httpClientContract('guarded node:http', async () => ({ client: (allowPrivateNetworks) => new GuardedHttpClient(allowPrivateNetworks), serve }));
