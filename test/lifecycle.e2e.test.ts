import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, exitOf, postgresRunning, runCli, startEmbedded, until } from './support/embedded-service';

// The zero-configuration path: no DATABASE_URL, so the service runs its own embedded PostgreSQL.
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'herald-lifecycle-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('the service on its embedded database', () => {
  it('keeps data across restarts, works with the operator command beside it, and stops cleanly on SIGTERM', async () => {
    const headers = { authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' };
    let { child, url } = await start();
    expect((await fetch(`${url}/v1/health-check`)).status).toBe(200);
    expect((await fetch(`${url}/v2/subscribers`, { method: 'POST', headers, body: JSON.stringify({ subscriberId: 'survivor' }) })).status).toBe(201);

    // The operator command uses the running service's database instead of starting another.
    const cli = await runCli(dataDir, ['keys', 'create', '--environment', 'production']);
    const key = /(hk_\S+)/.exec(cli)![1];
    expect((await fetch(`${url}/v2/subscribers/survivor`, { headers: { authorization: `ApiKey ${key}` } })).status).toBe(404);
    expect((await fetch(`${url}/v1/health-check`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(postgresRunning(dataDir)).toBe(false);

    ({ child, url } = await start());
    const again = await fetch(`${url}/v2/subscribers/survivor`, { headers });
    expect(again.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(postgresRunning(dataDir)).toBe(false);
  }, 180_000);

  it('keeps an idle connection open longer than a client pausing 5 s between requests', async () => {
    // The flaky failure: a client (the test, blocked in spawnSync) sent its next request on its
    // pooled connection just as the server closed it for being idle 5 s ("other side closed").
    // Idle connections are now kept 65 s, as the Keep-Alive header tells clients.
    const { child, url } = await start();
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    try {
      let received = '';
      let ended = false;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('end', () => (ended = true));
      const request = 'GET /v1/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
      socket.write(request);
      // The whole response: a JSON body, sent with a length or in chunks.
      await until(() => received.includes('\r\n\r\n') && (received.endsWith('}') || received.endsWith('0\r\n\r\n')), 10_000);
      expect(received).toMatch(/^HTTP\/1\.1 200/);
      expect(received).toMatch(/Keep-Alive: timeout=65/i);
      await new Promise((r) => setTimeout(r, 6_000));
      expect(ended).toBe(false);
      received = '';
      socket.write(request);
      await until(() => received.length > 0 || ended, 10_000);
      expect(received).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
      child.kill('SIGTERM');
      await exitOf(child);
    }
  }, 120_000);
});

function start() {
  return startEmbedded(dataDir);
}
