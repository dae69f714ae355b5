import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('observability settings', () => {
  it.each([
    [undefined, { enabled: false }],
    ['false', { enabled: false }],
    ['true', { enabled: true }],
    ['9464', { enabled: true, port: 9464 }],
  ])('HERALD_METRICS=%s', (value, metrics) => {
    expect(loadConfig({ HERALD_METRICS: value }).metrics).toEqual(metrics);
  });

  it('refuses a HERALD_METRICS that is neither a switch nor a port', () => {
    expect(() => loadConfig({ HERALD_METRICS: 'sometimes' })).toThrow(/HERALD_METRICS/);
    expect(() => loadConfig({ HERALD_METRICS: '70000' })).toThrow(/HERALD_METRICS/);
  });

  it('reads the log format, the readiness lag threshold and the OTLP endpoint', () => {
    const config = loadConfig({ LOG_FORMAT: 'pretty', HERALD_READY_MAX_LAG_SECONDS: '5', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
    expect(config).toMatchObject({ logFormat: 'pretty', readyMaxLagSeconds: 5, otlpEndpoint: 'http://collector:4318' });
    expect(loadConfig({})).toMatchObject({ logFormat: 'json', readyMaxLagSeconds: 60, otlpEndpoint: undefined });
    expect(() => loadConfig({ HERALD_READY_MAX_LAG_SECONDS: '-1' })).toThrow(/HERALD_READY_MAX_LAG_SECONDS/);
  });
});

describe('retention', () => {
  it('keeps delivery history 90 days unless HERALD_RETENTION_DAYS says otherwise', () => {
    expect(loadConfig({}).retentionDays).toBe(90);
    expect(loadConfig({ HERALD_RETENTION_DAYS: '30' }).retentionDays).toBe(30);
  });

  it.each(['0', '3651', '1.5', 'forever'])('refuses HERALD_RETENTION_DAYS=%s', (value) => {
    expect(() => loadConfig({ HERALD_RETENTION_DAYS: value })).toThrow(`HERALD_RETENTION_DAYS must be a whole number of days from 1 to 3650, got '${value}'`);
  });
});

describe('dashboard settings', () => {
  it('reads session lifetimes in seconds, with an hour idle and 12 hours at most by default', () => {
    expect(loadConfig({}).session).toEqual({ idleMs: 3_600_000, absoluteMs: 43_200_000 });
    expect(loadConfig({ HERALD_SESSION_IDLE_SECONDS: '2', HERALD_SESSION_MAX_SECONDS: '0.5' }).session).toEqual({ idleMs: 2000, absoluteMs: 500 });
    expect(() => loadConfig({ HERALD_SESSION_IDLE_SECONDS: '0' })).toThrow(/HERALD_SESSION_IDLE_SECONDS/);
  });

  it.each([
    [undefined, false],
    ['off', false],
    ['true', true],
    ['10.0.0.1, ::1', ['10.0.0.1', '::1']],
  ])('HERALD_TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ HERALD_TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuses a proxy list with something that is not an address, and a public URL that is not http(s)', () => {
    expect(() => loadConfig({ HERALD_TRUST_PROXY: 'proxy.internal' })).toThrow(/HERALD_TRUST_PROXY/);
    expect(() => loadConfig({ HERALD_PUBLIC_URL: 'ftp://x' })).toThrow(/HERALD_PUBLIC_URL/);
    expect(loadConfig({ HERALD_PUBLIC_URL: 'https://herald.example.com/dashboard/' }).publicOrigin).toBe('https://herald.example.com');
  });
});

describe('provider receipts', () => {
  it('trusts no SNS stand-in unless HERALD_SNS_TRUSTED_ORIGIN names one, and never in production', () => {
    expect(loadConfig({}).snsTrustedOrigin).toBeUndefined();
    expect(loadConfig({ HERALD_PROVIDER_ENDPOINTS: '{"sns": "http://127.0.0.1:4566"}' }).snsTrustedOrigin).toBeUndefined();
    expect(loadConfig({ HERALD_SNS_TRUSTED_ORIGIN: 'http://127.0.0.1:4566/' }).snsTrustedOrigin).toBe('http://127.0.0.1:4566');
    expect(() => loadConfig({ HERALD_SNS_TRUSTED_ORIGIN: 'http://127.0.0.1:4566', NODE_ENV: 'production' })).toThrow(/NODE_ENV=production/);
    expect(() => loadConfig({ HERALD_SNS_TRUSTED_ORIGIN: 'sns.local' })).toThrow(/HERALD_SNS_TRUSTED_ORIGIN must be an http\(s\) origin/);
  });
});
