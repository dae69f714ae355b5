import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor of any HTTP service on this machine: a plain node:http server that reads each trigger's
 * body, parses its JSON and answers 201 with the trigger's response shape, storing nothing. Run
 * under the same load generator as Herald, it shows what HTTP alone costs a trigger here.
 */
export async function startHttpFloor(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let transactionId: unknown;
      try {
        ({ transactionId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { transactionId?: unknown });
      } catch {
        res.writeHead(400).end();
        return;
      }
      const body = JSON.stringify({ data: { acknowledged: true, status: 'processed', transactionId } });
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
