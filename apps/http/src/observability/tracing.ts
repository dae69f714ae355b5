import type { EventRepository, ProviderRegistry, StepHandlers } from '@herald/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../platform/app-env';

/**
 * Where traces hook into Herald: a span per HTTP request, per trigger acceptance and fan-out chunk
 * (decorating the EventRepository), per step run and per provider call. The W3C trace context of
 * the trigger is stored with its event, so worker spans continue the trigger's trace.
 */
export interface Tracing {
  readonly enabled: boolean;
  http: MiddlewareHandler<AppEnv> | null;
  events(repository: EventRepository): EventRepository;
  steps(handlers: StepHandlers): StepHandlers;
  providers(registry: ProviderRegistry): ProviderRegistry;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/** Tracing off: nothing is wrapped and no OpenTelemetry module is loaded, so it costs nothing. */
export const noTracing: Tracing = {
  enabled: false,
  http: null,
  events: (repository) => repository,
  steps: (handlers) => handlers,
  providers: (registry) => registry,
  shutdown: async () => undefined,
};

/**
 * Starts tracing when an OTLP endpoint is configured. Call before anything loads `pg`: the standard
 * instrumentation patches it as it loads. The SDK is imported only here, only then.
 */
export async function startTracing(endpoint: string | undefined, serviceName: string): Promise<Tracing> {
  if (!endpoint) return noTracing;
  const { startOtelTracing } = await import('./otel-tracing');
  return startOtelTracing(endpoint, serviceName);
}
