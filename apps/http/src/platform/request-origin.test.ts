import { describe, expect, it } from 'vitest';
import { RequestOrigins, type RequestFacts } from './request-origin';

const facts = (headers: Record<string, string>, peer = '10.0.0.9', url = 'http://herald.local:3000/v1/x'): RequestFacts => ({
  url,
  header: (name) => headers[name.toLowerCase()],
  peer,
});

describe('RequestOrigins', () => {
  it('believes no forwarded header unless the operator trusts a proxy', () => {
    const origins = new RequestOrigins({ trustProxy: false });
    const forged = facts({ 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
    expect(origins.clientAddress(forged)).toBe('10.0.0.9');
    expect(origins.isHttps(forged)).toBe(false);
    expect(origins.ownOrigin(forged)).toBe('http://herald.local:3000');
  });

  it('behind a trusted proxy, reads the scheme, host and client it forwards', () => {
    const origins = new RequestOrigins({ trustProxy: true });
    const proxied = facts({ 'x-forwarded-for': '203.0.113.7, 198.51.100.2', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'herald.example.com' });
    expect(origins.clientAddress(proxied)).toBe('198.51.100.2');
    expect(origins.isHttps(proxied)).toBe(true);
    expect(origins.ownOrigin(proxied)).toBe('https://herald.example.com');
  });

  it('with a list of proxies, skips them from the right and believes only those peers', () => {
    const origins = new RequestOrigins({ trustProxy: ['10.0.0.9', '10.0.0.8'] });
    expect(origins.clientAddress(facts({ 'x-forwarded-for': '203.0.113.7, 10.0.0.8' }))).toBe('203.0.113.7');
    expect(origins.clientAddress(facts({ 'x-forwarded-for': '203.0.113.7' }, '192.0.2.1'))).toBe('192.0.2.1');
  });

  it('takes the public URL as the origin, and a https one as HTTPS', () => {
    const origins = new RequestOrigins({ trustProxy: false, publicOrigin: 'https://herald.example.com' });
    expect(origins.ownOrigin(facts({}))).toBe('https://herald.example.com');
    expect(origins.isHttps(facts({}))).toBe(true);
  });

  it.each([
    ['the same origin', { origin: 'http://herald.local:3000' }, true],
    ['another origin', { origin: 'http://evil.example' }, false],
    ['another port', { origin: 'http://herald.local:3001' }, false],
    ['the opaque null origin', { origin: 'null' }, false],
    ['a same-origin Referer without Origin', { referer: 'http://herald.local:3000/dashboard/workflows' }, true],
    ['a foreign Referer without Origin', { referer: 'http://evil.example/herald.local:3000' }, false],
    ['Origin over Referer', { origin: 'http://evil.example', referer: 'http://herald.local:3000/' }, false],
    ['neither', {}, false],
  ])('CSRF: %s', (_, headers, expected) => {
    expect(new RequestOrigins({ trustProxy: false }).sameOrigin(facts(headers))).toBe(expected);
  });
});
