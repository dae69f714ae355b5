import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { DeliveryProvider, EventRepository, ProviderRegistry, StepHandler, StepHandlers } from '@herald/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../platform/app-env';
import { routeTemplate } from './http-metrics';
import type { Tracing } from './tracing';

/** The trace a stored W3C traceparent belongs to; the root context when there is none. */
function fromTraceparent(traceparent: string | null | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

function traceparentOf(ctx: Context): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent ?? null;
}

/** Runs `fn` in a new span that ends (with an error status when `fn` throws) when `fn` settles. */
async function inSpan<T>(span: Span, parent: Context, fn: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * OpenTelemetry tracing, exported by OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT: protobuf, or JSON when
 * OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL is http/json (the exporter reads the other standard OTEL_*
 * settings itself: headers, timeouts, a traces-only endpoint). pg spans
 * come from the standard instrumentation, only inside a traced operation (no spans for pg-boss's polling).
 */
export function startOtelTracing(_endpoint: string, serviceName: string): Tracing {
  const json = (process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || process.env.OTEL_EXPORTER_OTLP_PROTOCOL) === 'http/json';
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [new BatchSpanProcessor(json ? new OtlpJsonExporter() : new OtlpProtobufExporter())],
  });
  provider.register();
  registerInstrumentations({ instrumentations: [new PgInstrumentation({ requireParentSpan: true })] });
  const tracer = trace.getTracer('herald');

  const http: MiddlewareHandler<AppEnv> = async (c, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, Object.fromEntries(c.req.raw.headers));
    const method = c.req.method;
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': c.req.path } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeTemplate(c);
      const status = c.res.status;
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };

  const events = (inner: EventRepository): EventRepository => ({
    findWorkflow: (environmentId, identifier) => inner.findWorkflow(environmentId, identifier),
    loadFanout: (eventId) => inner.loadFanout(eventId),
    fanoutCandidates: (event, lane, limit) => inner.fanoutCandidates(event, lane, limit),
    fanoutExceeds: (event, lane, count) => inner.fanoutExceeds(event, lane, count),
    accept(acceptance, runInline) {
      const parent = context.active();
      const span = tracer.startSpan('herald.trigger', {
        attributes: { 'herald.transaction_id': acceptance.transactionId, 'herald.workflow': acceptance.workflow.identifier, 'herald.recipients': acceptance.recipients.subscriberIds.length },
      }, parent);
      return inSpan(span, parent, async () => {
        const outcome = await inner.accept({ ...acceptance, traceContext: traceparentOf(trace.setSpan(parent, span)) }, runInline);
        span.setAttribute('herald.accepted', outcome.accepted);
        return outcome;
      });
    },
    commitFanoutChunk(event, accepted, progress, inline) {
      const parent = fromTraceparent(event.traceContext);
      const span = tracer.startSpan('herald.fanout.chunk', { attributes: { 'herald.event_id': event.id, 'herald.recipients': accepted.length } }, parent);
      return inSpan(span, parent, () => inner.commitFanoutChunk(event, accepted, progress, inline));
    },
  });

  const step = (inner: StepHandler): StepHandler => ({
    run(job, variables) {
      const parent = fromTraceparent(job.traceContext);
      const span = tracer.startSpan(`herald.step ${job.step.type}`, {
        attributes: {
          'herald.transaction_id': job.transactionId,
          'herald.workflow': job.workflow.identifier,
          'herald.step_id': job.step.stepId,
          'herald.step_type': job.step.type,
          'herald.attempt': job.attempts,
        },
      }, parent);
      return inSpan(span, parent, async () => {
        const result = await inner.run(job, variables);
        span.setAttribute('herald.step_status', result.status);
        if (result.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: result.details[result.details.length - 1]?.detail });
        return result;
      });
    },
  });

  const steps = (handlers: StepHandlers): StepHandlers =>
    Object.fromEntries(Object.entries(handlers).map(([type, handler]) => [type, step(handler)])) as unknown as StepHandlers;

  const providers = (inner: ProviderRegistry): ProviderRegistry => ({
    get(providerId) {
      const target = inner.get(providerId);
      if (!target) return null;
      return Object.assign(Object.create(target) as DeliveryProvider, {
        send(message: Parameters<DeliveryProvider['send']>[0], credentials: Parameters<DeliveryProvider['send']>[1], options?: Parameters<DeliveryProvider['send']>[2]) {
          const parent = context.active();
          const span = tracer.startSpan(`herald.provider ${providerId}`, {
            kind: SpanKind.CLIENT,
            attributes: { 'herald.provider_id': providerId, 'herald.channel': message.channel, 'herald.transaction_id': message.transactionId },
          }, parent);
          return inSpan(span, parent, () => target.send(message, credentials, options));
        },
      });
    },
  });

  return { enabled: true, http, events, steps, providers, shutdown: () => provider.shutdown() };
}
