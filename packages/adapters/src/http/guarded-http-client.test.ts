import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundRefusedError } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { GuardedHttpClient, isPrivateAddress } from './guarded-http-client';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:7f00:1', true], // 127.0.0.1 mapped into IPv6, as URL parsing writes it
    ['::ffff:a9fe:a9fe', true], // 169.254.169.254 mapped
    ['64:ff9b::7f00:1', true], // NAT64
    ['2002:7f00:1::', true], // 6to4
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
  ])('%s -> %s', (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });
});

describe('GuardedHttpClient', () => {
  it('refuses loopback in every spelling unless private networks are allowed', async () => {
    const server = createServer((_, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const guarded = new GuardedHttpClient(false);
      for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
        const refusal = guarded.request({ method: 'GET', url: `http://${host}:${port}/`, headers: {}, timeoutMs: 2000 });
        // A hostname is refused in the DNS lookup: node:http passes that error on as it is.
        await expect(refusal).rejects.toThrow(/refused to call/);
        await expect(refusal).rejects.toBeInstanceOf(OutboundRefusedError);
      }
      const open = new GuardedHttpClient(true);
      expect((await open.request({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, timeoutMs: 2000 })).body).toBe('ok');
    } finally {
      server.close();
    }
  });

  it('gives up on a server that trickles its answer past the deadline', async () => {
    const server = createServer((_, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const client = new GuardedHttpClient(true);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await expect(client.request({ method: 'GET', url, headers: {}, timeoutMs: 500 })).rejects.toThrow(/within 500 ms/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
