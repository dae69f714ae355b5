import { describe, expect, it } from 'vitest';
import { verifyRequestSignature } from '../../rules/http-signature';
import { InMemoryHttpClient, type ServedRequest } from '../../testing/in-memory-http-client';
import { BridgeClient } from './bridge-client';

const KEY = 'sk_test_bridge';
const event = { payload: { n: 1 }, subscriber: { subscriberId: 'ada' }, controls: {}, state: [], context: {} };

function bridge(answer: (request: ServedRequest) => { status: number; body: string; headers?: Record<string, string> }) {
  const http = new InMemoryHttpClient(true);
  const seen: ServedRequest[] = [];
  const origin = http.serve((request) => {
    seen.push(request);
    const { status, body, headers = {} } = answer(request);
    return { status, body, headers: { 'content-type': 'application/json', ...headers } };
  });
  return { client: new BridgeClient(http), target: { url: `${origin}/api/novu`, secretKey: KEY }, seen };
}

describe('BridgeClient', () => {
  it('signs each call as the framework verifies it: the JSON body sent ({} for a GET), a timestamp within its 5 minutes', async () => {
    const { client, target, seen } = bridge(() => ({ status: 200, body: '{"outputs":{"body":"hi"},"providers":{"slack":{"text":"x"}},"options":{"skip":false}}' }));
    const answer = await client.execute(target, 'execute', 'ping', 'bell', event);
    expect(answer).toEqual({ ok: true, value: { outputs: { body: 'hi' }, providers: { slack: { text: 'x' } }, options: { skip: false } } });
    await client.discover(target);
    const [post, get] = seen;
    expect(post.path).toBe('/api/novu?action=execute&workflowId=ping&stepId=bell');
    expect(verifyRequestSignature(KEY, post.body, post.headers['novu-signature'], 300_000)).toBe(true);
    expect(post.headers['x-novu-signature']).toBe(post.headers['novu-signature']);
    expect(get.method).toBe('GET');
    expect(verifyRequestSignature(KEY, '{}', get.headers['novu-signature'], 300_000)).toBe(true);
  });

  it("gives the bridge's status, code and message; 5xx, 408, 425 and 429 may pass, other answers are final", async () => {
    for (const [status, retryable] of [[503, true], [500, true], [408, true], [425, true], [429, true], [400, false], [401, false], [404, false]] as const) {
      const { client, target } = bridge(() => ({ status, body: JSON.stringify({ message: `bridge says ${status}`, code: 'SomeError' }) }));
      const answer = await client.execute(target, 'execute', 'ping', 'bell', event);
      expect(answer).toMatchObject({ ok: false, failure: { status, code: 'SomeError', message: `bridge says ${status}`, retryable } });
    }
  });

  it("refuses what the outbound guard refuses for good, and retries a failure to connect whatever its message says", async () => {
    const guarded = new BridgeClient(new InMemoryHttpClient(false));
    const refused = await guarded.discover({ url: 'http://10.0.0.8/api/novu', secretKey: KEY });
    expect(refused).toMatchObject({ ok: false, failure: { status: null, retryable: false, message: expect.stringMatching(/^could not reach the bridge: refused to call 10\.0\.0\.8/) } });
    // A network failure whose text happens to read like a refusal is still a network failure.
    const { client, target } = bridge(() => {
      throw new Error('socket hang up: upstream proxy not allowed to answer yet');
    });
    expect(await client.discover(target)).toMatchObject({ ok: false, failure: { status: null, retryable: true } });
    const down = new BridgeClient(new InMemoryHttpClient(true));
    expect(await down.discover({ url: 'http://127.0.0.1:1/api/novu', secretKey: KEY })).toMatchObject({ ok: false, failure: { retryable: true, message: expect.stringMatching(/ECONNREFUSED/) } });
  });
});
