import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps } from './support/workflow-rows';

// Traces as an OpenTelemetry collector receives them: an in-process OTLP/HTTP (JSON) receiver.
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number; boolValue?: boolean } }>;
}

let svc: TestService;
let collector: Server;
const spans: OtlpSpan[] = [];

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue;
};

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const { resourceSpans } = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const r of resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  svc = await startService({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
});
afterAll(async () => {
  await svc?.dispose();
  collector?.close();
});

describe('OpenTelemetry traces', () => {
  it('one trace links the HTTP request, the trigger transaction, each step and the provider call, with pg spans', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'traced' }, [
      { type: 'in_app', stepId: 'inbox', controlValues: { body: 'Hello' } },
      { type: 'email', stepId: 'mail', controlValues: { subject: 'Hi', body: 'Hello' } },
    ]);
    await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'traced-1', email: 'traced@example.com' } });
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await svc.request('/v1/events/trigger', { method: 'POST', headers: { traceparent }, json: { name: 'traced', to: 'traced-1', transactionId: 'tx-traced' } });
    expect(res.status).toBe(201);

    const provider = await waitFor(() => spans.find((s) => s.name === 'herald.provider herald-email' && attribute(s, 'herald.transaction_id') === 'tx-traced'));
    // The caller's trace continues: every span of this trigger is in it.
    expect(provider.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    const trace = spans.filter((s) => s.traceId === provider.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const http = trace.find((s) => s.name === 'POST /v1/events/trigger')!;
    expect(http).toBeDefined();
    expect(http.parentSpanId).toBe('b7ad6b7169203331');
    expect(attribute(http, 'http.route')).toBe('/v1/events/trigger');
    const trigger = trace.find((s) => s.name === 'herald.trigger')!;
    expect(trigger.parentSpanId).toBe(http.spanId);
    expect(attribute(trigger, 'herald.transaction_id')).toBe('tx-traced');
    const steps = trace.filter((s) => s.name.startsWith('herald.step '));
    expect(steps.map((s) => s.name).sort()).toEqual(['herald.step email', 'herald.step in_app']);
    for (const step of steps) {
      expect(step.parentSpanId).toBe(trigger.spanId);
      expect(attribute(step, 'herald.transaction_id')).toBe('tx-traced');
    }
    expect(byId.get(provider.parentSpanId!)?.name).toBe('herald.step email');
    // The trigger's statements, from the standard pg instrumentation, are children of its transaction span.
    const statements = trace.filter((s) => attribute(s, 'db.system') === 'postgresql' || attribute(s, 'db.system.name') === 'postgresql');
    expect(statements.some((s) => s.parentSpanId === trigger.spanId)).toBe(true);
  });

  it('a topic trigger traces its fan-out chunks and the steps of the recipients they created', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'traced-topic' }, [{ type: 'in_app', stepId: 'inbox', controlValues: { body: 'News' } }]);
    await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'reader-1' } });
    expect((await svc.request('/v2/topics/news/subscriptions', { method: 'POST', json: { subscriptions: ['reader-1'] } })).status).toBeLessThan(300);
    const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'traced-topic', to: [{ type: 'Topic', topicKey: 'news' }], transactionId: 'tx-topic' } });
    expect(res.status).toBe(201);

    const step = await waitFor(() => spans.find((s) => s.name === 'herald.step in_app' && attribute(s, 'herald.transaction_id') === 'tx-topic'));
    // The in-app step runs inside its chunk (inline), so its span ends before the chunk's does.
    await waitFor(() => spans.some((s) => s.traceId === step.traceId && s.name === 'herald.fanout.chunk'));
    const trace = spans.filter((s) => s.traceId === step.traceId);
    const trigger = trace.find((s) => s.name === 'herald.trigger')!;
    expect(trace.find((s) => s.spanId === trigger.parentSpanId)?.name).toBe('POST /v1/events/trigger');
    const chunks = trace.filter((s) => s.name === 'herald.fanout.chunk');
    expect(chunks.length).toBeGreaterThanOrEqual(1);
    expect(chunks.every((c) => c.parentSpanId === trigger.spanId)).toBe(true);
    expect(step.parentSpanId).toBe(trigger.spanId);
  });
});
