import { describe, expect, it } from 'vitest';
import { OutboundRefusedError, type HttpClient } from '../ports/http-client';
import type { Handler } from './in-memory-http-client';

export interface HttpClientFixture {
  /** A client; `allowPrivateNetworks` as the operator set it. */
  client(allowPrivateNetworks: boolean): HttpClient;
  /** Serves the handler on a loopback address; its base URL (http://127.0.0.1:port). */
  serve(handler: Handler): Promise<string>;
}

/** The behaviour every HttpClient has; run against the in-memory double and the guarded node:http client. */
export function httpClientContract(name: string, setup: () => Promise<HttpClientFixture>): void {
  describe(`HttpClient contract: ${name}`, () => {
    it('sends the method, path, headers and body, and returns the status, headers and body as they came, errors included', async () => {
      const fixture = await setup();
      const seen: unknown[] = [];
      const base = await fixture.serve((request) => {
        seen.push(request);
        return { status: request.path.startsWith('/fail') ? 503 : 201, headers: { 'X-Answer': '42', 'content-type': 'application/json' }, body: '{"ok":"é"}' };
      });
      const client = fixture.client(true);
      const response = await client.request({ method: 'post', url: `${base}/hook?x=1`, headers: { 'Content-Type': 'application/json', 'X-Signature': 'sig' }, body: '{"a":1}', timeoutMs: 5_000 });
      expect(response).toMatchObject({ status: 201, headers: { 'x-answer': '42', 'content-type': 'application/json' }, body: '{"ok":"é"}' });
      expect(seen).toEqual([expect.objectContaining({ method: 'POST', path: '/hook?x=1', headers: expect.objectContaining({ 'content-type': 'application/json', 'x-signature': 'sig' }), body: '{"a":1}' })]);
      expect(await client.request({ method: 'GET', url: `${base}/fail`, headers: {}, timeoutMs: 5_000 })).toMatchObject({ status: 503 });
    });

    it('refuses private, loopback and link-local addresses unless allowed, without calling them', async () => {
      const fixture = await setup();
      let called = 0;
      const base = await fixture.serve(() => (called++, { status: 200, headers: {}, body: '' }));
      const client = fixture.client(false);
      for (const url of [`${base}/x`, 'http://10.1.2.3/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x', 'http://192.168.0.1/']) {
        await expect(client.request({ method: 'GET', url, headers: {}, timeoutMs: 2_000 })).rejects.toThrow(/not allowed/);
        await expect(client.request({ method: 'GET', url, headers: {}, timeoutMs: 2_000 })).rejects.toBeInstanceOf(OutboundRefusedError);
      }
      expect(called).toBe(0);
    });

    it('refuses what is not an http(s) URL', async () => {
      const client = (await setup()).client(true);
      await expect(client.request({ method: 'GET', url: 'not a url', headers: {}, timeoutMs: 1_000 })).rejects.toThrow(/not a valid URL/);
      await expect(client.request({ method: 'GET', url: 'file:///etc/passwd', headers: {}, timeoutMs: 1_000 })).rejects.toThrow(/only http and https/);
      for (const url of ['not a url', 'file:///etc/passwd']) {
        await expect(client.request({ method: 'GET', url, headers: {}, timeoutMs: 1_000 })).rejects.toBeInstanceOf(OutboundRefusedError);
      }
    });

    it('rejects a destination that does not answer with a plain error, not a refusal: calling again may work', async () => {
      const client = (await setup()).client(true);
      // Port 9 on loopback (discard): nothing listens there in a test run.
      const failure = await client.request({ method: 'GET', url: 'http://127.0.0.1:9/x', headers: {}, timeoutMs: 2_000 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(OutboundRefusedError);
    });

    it('gives up on a response that does not complete within the deadline', async () => {
      const fixture = await setup();
      const base = await fixture.serve(() => new Promise(() => undefined));
      const started = Date.now();
      await expect(fixture.client(true).request({ method: 'GET', url: `${base}/slow`, headers: {}, timeoutMs: 200 })).rejects.toThrow(/within 200 ms/);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
}
